// Activation memory, derived from the architecture: the tensors each block saves for backward,
// per token, under each activation-checkpointing policy; the logits and loss; pipeline
// microbatches in flight. No fixed "K = 10–15": K is derived and reported.
//
// Sources:
// - Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
//   (§4: 34·s·b·h + 5·a·s²·b bytes per layer for GPT with dropout; /t under TP, all /t with SP;
//   selective recompute drops the attention-score terms; full recompute keeps the layer input).
//   We re-derive the same bookkeeping for GQA, MLA, gated MLPs and MoE instead of using 34.
// - torchtitan activation_checkpoint (op-level SAC policy: saves outputs of every other mm, of
//   SDPA/flash attention; integer k checkpoints every k-th block), models/norms (RMSNorm in fp32).
// - Megatron-LM schedules.py (1F1B warmup = pp - rank - 1; interleaved
//   (pp - rank - 1)·2 + (v - 1)·pp), cross_entropy.py (vocab-parallel CE saves fp32 softmax).
// - Reference README: ~12 bytes per logit element for an fp32-upcast eager cross-entropy at the
//   start of backward, ~6 for Megatron's fused path.
#include <algorithm>
#include <cmath>

#include "core/estimate/accuracy.h"
#include "core/estimate/estimate_internal.h"

namespace trainmem::detail {
namespace {

struct Shape {
  double h = 0, q_dim = 0, k_dim = 0, v_dim = 0, o_dim = 0, heads = 0;
  double latent = 0;        // MLA q/kv latents saved as up-projection inputs (replicated)
  double mlp_width = 0;     // dense MLP intermediate
  double shared_width = 0;  // an MoE block's shared experts, all together
  double expert_width = 0;  // one routed expert's intermediate
  double top_k = 0, experts = 0;
  double index_heads = 0;       // DeepSeek-V3.2's lightning-indexer heads (0: no indexer)
  bool clamped_swiglu = false;  // gpt-oss's experts (ModelArch::clamped_swiglu)
  // Gemma 2/3's sandwich norms (ModelArch::norms_per_layer 4): a norm after the attention and
  // after the MLP as well as before each. Each saves its input, the sublayer's output; its own
  // output only feeds the residual add, which saves nothing.
  bool post_norms = false;
  // DeciLM replace_with_linear: the part is one h × h linear, which saves only its input.
  bool attention_linear = false, mlp_linear = false;
};

// A heterogeneous model's layer (DeciLM block_configs): its own KV heads and MLP width.
// A block whose attention has `heads` query heads of `head_dim` (Step-3.5's sliding-window layers
// and MTP blocks, Gemma 4's global layers): q_proj and o_proj follow.
void SetQueryHeads(Shape& s, std::int64_t heads, std::int64_t head_dim) {
  s.heads = static_cast<double>(heads);
  s.q_dim = s.heads * static_cast<double>(head_dim);
  s.o_dim = s.q_dim;
}

// MiMo-V2-Flash's values are value_head_dim wide (ModelArch::value_head_dim): v_proj's output and
// the attention output o_proj reads.
void SetValueWidth(Shape& s, const ModelArch& m, std::int64_t kv_heads) {
  if (m.value_head_dim <= 0) return;
  const double d = static_cast<double>(m.value_head_dim);
  s.v_dim = static_cast<double>(kv_heads) * d;
  s.o_dim = s.heads * d;
}

// Megatron with fewer KV heads than TP ranks (config_validate.cpp, NVIDIA/Megatron-LM#2565): each
// rank gathers its group's QKV activations and keeps one KV head, not a fraction of one.
void OneKvHeadPerRank(Shape& s, const ModelArch& m, double head_dim, double tp) {
  if (m.attention == AttentionKind::kMla || head_dim <= 0 || s.k_dim <= 0) return;
  if (s.k_dim / tp >= head_dim) return;
  s.k_dim = tp * head_dim;
  s.v_dim = tp * (m.value_head_dim > 0 ? static_cast<double>(m.value_head_dim) : head_dim);
}

Shape LayerShape(const ModelArch& m, Shape s, std::int64_t layer) {
  const std::int64_t kv = m.KvHeadsOf(layer), width = m.MlpWidthOf(layer);
  s.attention_linear = kv == ModelArch::kLinearPart;
  s.mlp_linear = width == ModelArch::kLinearPart;
  if (m.attention != AttentionKind::kMla && kv > 0) {
    // Gemma 4's full-attention layers are global_head_dim wide (HeadDimOf); Step-3.5's
    // sliding-window layers have more query heads (HeadsOf).
    const std::int64_t head_dim = m.HeadDimOf(layer);
    SetQueryHeads(s, m.HeadsOf(layer), head_dim);
    s.k_dim = static_cast<double>(kv) * static_cast<double>(head_dim);
    s.v_dim = s.k_dim;
    SetValueWidth(s, m, kv);
  }
  if (width > 0) s.mlp_width = static_cast<double>(width);
  return s;
}

Shape ShapeOf(const ModelArch& m) {
  Shape s;
  s.h = static_cast<double>(m.hidden_size);
  s.heads = static_cast<double>(m.num_heads);
  if (m.attention == AttentionKind::kMla) {
    double qk = static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim);
    s.q_dim = s.heads * qk;
    s.k_dim = s.heads * qk;
    s.v_dim = s.heads * static_cast<double>(m.v_head_dim);
    s.o_dim = s.v_dim;
    s.latent = static_cast<double>(m.q_lora_rank + m.kv_lora_rank + m.qk_rope_head_dim);
    s.index_heads = static_cast<double>(m.index_n_heads);
  } else {
    double d = static_cast<double>(m.head_dim);
    s.q_dim = s.heads * d;
    s.k_dim = static_cast<double>(m.num_kv_heads) * d;
    s.v_dim = s.k_dim;
    s.o_dim = s.q_dim;
    SetValueWidth(s, m, m.num_kv_heads);
  }
  s.mlp_width = static_cast<double>(m.intermediate_size);
  s.expert_width = static_cast<double>(m.moe_intermediate_size);
  s.shared_width = static_cast<double>(m.num_shared_experts * m.shared_expert_intermediate_size);
  s.top_k = static_cast<double>(m.experts_per_token);
  s.experts = static_cast<double>(m.num_experts);
  s.clamped_swiglu = m.clamped_swiglu;
  s.post_norms = m.norms_per_layer >= 4;
  return s;
}

// Everything that depends on the config but not on the layer.
// How a framework runs context parallelism by default (what it keeps and exchanges per layer).
enum class CpKind {
  kRingP2p,    // Megatron on GPUs (TE cp_comm_type "p2p"): KV passed round the ring
  kNpuRing,    // MindSpeed-LLM on Ascend (megatron_cp_algo, its default): KV passed round
  kAllGather,  // torchtitan (context_parallel_rotate_method "allgather"): KV gathered per layer
  kUlysses,    // DeepSpeed-Ulysses, torchtitan-npu's custom CP: all-to-all heads ↔ sequence
};

struct Context {
  double ab = 2;  // activation bytes (the compute dtype)
  double tp = 1, etp = 1;
  double rep = 1;  // divisor for tensors replicated under TP: tp with sequence parallel
  double dropout = 0;
  bool eager_attention = false;
  bool compiled = false;
  bool fused_norm = false;  // Megatron TE/Apex fused norms, or torch.compile
  Framework framework = Framework::kTorchtitan;
  bool torchtitan = false;  // torchtitan or torchtitan-npu
  double ep = 1;
  double seq_kv = 0;          // keys each query attends to in eager attention
  bool op_level_sac = false;  // selective_ac_option "op" (else every k-th block)
  double gated_factor = 4;    // saved I-sized tensors of a gated MLP
  double plain_factor = 2;    // of a non-gated MLP
  double cp = 1;
  CpKind cp_kind = CpKind::kRingP2p;
  double ulysses = 1;  // Megatron / MindSpeed: the all-to-all degree inside CP (1 = ring only)
  // Megatron on an Ascend NPU, i.e. MindSpeed-LLM: attention runs torch_npu's kernels.
  bool ascend = false;
  // MindSpeed-LLM's flash attention with ALiBi (modellink/model/transformer.py
  // FlashSelfAttention.forward, 74d7a098fb): the bias is an [mbs, heads/tp, s, s] tensor
  // (alibi.py get_alibi_pse, built once and kept on the module), scaled into a new one per layer
  // (`pse = pse * self.beta * self.norm_factor`) and passed to npu_fusion_attention as pse,
  // which keeps it for backward (assumed from the op's backward taking pse).
  bool alibi_pse = false;
  // Softmax statistics flash attention saves per head per token. CUDA flash attention keeps one
  // fp32 logsumexp (4 B). torch_npu.npu_fusion_attention returns softmax_max and softmax_sum,
  // each [B, N, S, 8] fp32, and its backward takes both (MindSpeed-LLM
  // core/transformer/dot_product_attention.py flash_attention_forward; MindSpeed
  // core/context_parallel/ring_context_parallel.py "[b, n, 2s, 8]"): 2 × 8 × 4 = 64 B.
  double lse_bytes = 4.0;
  // MindSpeed applies RoPE with torch_npu.npu_rotary_mul (--use-fused-rotary-pos-emb, in
  // MindSpeed-LLM's example and CI scripts); its backward takes x as well as cos and sin
  // (op-plugin npu_rotary_mul / npu_rotary_position_embedding backward inputs dy, cos, sin, x),
  // so q and k before RoPE are saved. They are views of the QKV projection's output (split along
  // the last dim), which therefore stays alive whole, v's part included. Assumed for RoPE models
  // on Ascend (not MLA, whose RoPE covers a separate slice; not learned positions).
  bool rope_keeps_qkv = false;
  // DeepSeek-V3.2's indexer scores and the main attention's probabilities are materialised
  // (training.dsa_fused_kernels off): DsaScoreBytes.
  bool dsa_scores = false;
  // torchtitan's FlexAttention runs flex_attention through torch.compile with
  // wrap_inductor_compiled_regions (models/common/attention.py FlexAttention.inductor_configs),
  // so in an eager model the compiled region is one inductor_compiled_code op, which SelectiveAC
  // saves (distributed/activation_checkpoint.py _get_default_save_ops). Its outputs include what
  // its backward reads, q and k after their norm and RoPE (v is the saved projection output
  // itself), so per-op SAC keeps them too. A compiled model partitions the block as a whole.
  bool flex_region_keeps_qk = false;
};

Context ContextOf(const Config& c, const Layout& l) {
  Context x;
  x.ab = static_cast<double>(DTypeBytes(c.training.mixed_precision_param));
  x.tp = static_cast<double>(l.tp);
  x.etp = static_cast<double>(l.etp);
  // Sequence parallelism (SequenceParallelOn): without it, what lies between the TP regions is
  // replicated on every TP rank.
  x.rep = SequenceParallelOn(c, l.tp) ? x.tp : 1.0;
  x.cp = static_cast<double>(l.cp);
  switch (c.framework) {
    case Framework::kTorchtitan:
    case Framework::kTorchtune:
      x.cp_kind = CpKind::kAllGather;
      break;
    case Framework::kTorchtitanNpu:
    case Framework::kDeepspeed:
      x.cp_kind = CpKind::kUlysses;
      break;
    case Framework::kMegatron:
      x.cp_kind = CpKind::kRingP2p;
      break;
  }
  x.framework = c.framework;
  if (c.framework == Framework::kMegatron && c.parallelism.ulysses_degree_in_cp > 0)
    x.ulysses = static_cast<double>(c.parallelism.ulysses_degree_in_cp);
  x.ascend = c.framework == Framework::kMegatron && DeviceIsAscend(c.device);
  x.alibi_pse = x.ascend && c.model.alibi && c.training.attention != AttentionImpl::kEager;
  if (x.ascend) {
    x.lse_bytes = 64.0;
    x.cp_kind = CpKind::kNpuRing;
    x.rope_keeps_qkv = !c.model.learned_positions && c.model.attention != AttentionKind::kMla;
  }
  x.torchtitan = IsTorchtitanFramework(c.framework);
  x.ep = static_cast<double>(l.ep);
  // Megatron's default hidden and attention dropout is 0.1 (arguments.py); torchtitan and
  // torchtune models have none.
  x.dropout = c.training.dropout.value_or(c.framework == Framework::kMegatron ? 0.1 : 0.0);
  x.eager_attention = c.training.attention == AttentionImpl::kEager;
  x.compiled = c.compile.enable && c.compile.model;
  // Norms that save only their input and per-row statistics: Megatron's TE/Apex kernels, a
  // compiled block, and torchtitan's nn.RMSNorm, which from torch 2.9 runs aten._fused_rms_norm
  // with its own backward (_fused_rms_norm_backward reads the input and rstd); current
  // torchtitan needs a torch newer than that. The Hugging Face and torchtune RMSNorm modules
  // compute in fp32 step by step and keep the fp32 input and normalised value too.
  x.fused_norm =
      x.compiled || c.framework == Framework::kMegatron || c.framework == Framework::kTorchtitan;
  x.seq_kv = static_cast<double>(c.training.seq_len);
  // Read from Megatron-LM's and MindSpeed-LLM's source only; other frameworks' indexers are left
  // out.
  x.dsa_scores = c.framework == Framework::kMegatron && c.model.index_n_heads > 0 &&
                 !c.training.dsa_fused_kernels;
  x.op_level_sac = c.activation_checkpoint.mode == AcMode::kSelective &&
                   c.activation_checkpoint.selective_ac_option == "op";
  x.flex_region_keeps_qk =
      x.torchtitan && x.op_level_sac && !x.compiled && c.training.attention == AttentionImpl::kFlex;
  if (x.compiled) {
    // Inductor's min-cut partitioner recomputes the cheap activation in backward but keeps the
    // two up-projections and the product that feeds w2 (three I-wide tensors, eager keeps four):
    // a Qwen3-14B sweep on 8 × B200 (torchtitan branch autoresearch-parallelize/may19-qwen3-14b)
    // saves 20.2 GiB compiling its no-AC block, one I-wide bf16 tensor of its 40 layers × 16,384
    // tokens being 22.3 GiB; GPT-OSS-20B's compiled no-AC rows in tests/data/torchtitan_runs.jsonl
    // come out −4.5 / −7.1 % with two kept, +3.4 / +2.1 % with three. A plain MLP keeps fc1's
    // output.
    x.gated_factor = 3;
    x.plain_factor = 1;
  } else if (c.framework == Framework::kMegatron) {
    // Fused bias-SwiGLU saves fc1's [gate, up] output; fc2 saves its input (bias_swiglu.py);
    // Megatron-LM fuses a GELU-gated MLP the same way (fusions/fused_bias_geglu.py).
    x.gated_factor = 3;
    x.plain_factor = 2;
    // MindSpeed-LLM's GELU-gated MLPs run unfused (mindspeed_llm/core/transformer/mlp.py
    // core_mlp_init sets bias_gelu_fusion = False for --geglu and --gelu-tanh), so Megatron's
    // glu() chunks fc1's output and each op saves its own operands:
    // - --geglu (F.gelu): gelu keeps its input, a view that holds fc1's [gate, up] output
    //   (2I); the product keeps gelu's output (I) and the up half (a view); fc2 keeps its input
    //   (I): 4I.
    // - --gelu-tanh: gelu_tanh_approximation is 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
    //   written as tensor ops: pow keeps x (the 2I output), tanh its output, the product
    //   0.5·x · (1 + tanh) both factors, the gating product gelu's output, fc2 its input: 2I + 5I.
    if (x.ascend && c.model.mlp == MlpKind::kGated) {
      const std::string& act = c.model.hidden_act;
      if (act == "gelu_pytorch_tanh" || act == "gelu_tanh" || act == "gelu_new")
        x.gated_factor = 7;
      else if (act == "gelu")
        x.gated_factor = 4;
    }
  }
  return x;
}

// Bytes a norm saves per token: fused kernels keep the input and per-row statistics; the eager
// fp32 RMSNorm also keeps an fp32 copy of the input and the normalised value before the weight.
double NormBytes(const Context& x, double width) {
  double stats = 4.0;
  if (x.fused_norm) return x.ab * width + stats;
  return (4.0 + x.ab) * width + stats;
}

struct LayerBytes {
  double none = 0;           // saved with no checkpointing
  double op_sac = 0;         // torchtitan op-level selective AC
  double op_sac_linear = 0;  // the part of op_sac that is dense linears' outputs (mm / linear)
  double input = 0;          // the block input (what full AC keeps)
  double scores = 0;         // eager attention probabilities (part of none)
  double working = 0;        // transient gradients while this block runs backward
  // Parts of `none` that Megatron's --recompute-modules drop (recomputed in backward):
  double norm_out = 0;    // layernorm: the norm's output (the next linear's input)
  double up_proj = 0;     // mla_up_proj: MLA's q, k, v after the up-projections
  double dense = 0;       // mlp: a dense MLP's intermediates
  double shared = 0;      // shared_experts: the shared experts' intermediates
  double routed = 0;      // moe: the router's and the routed copies' tensors
  double routed_act = 0;  // moe_act: one F-wide tensor per routed copy (the activation's output)
};

// A DeciLM replace_with_linear part: its norm and one h × h linear, which saves its input.
LayerBytes LinearPartBytes(const Context& x, const Shape& s) {
  LayerBytes b;
  b.input = x.ab * s.h / x.rep;
  b.none = NormBytes(x, s.h) / x.rep + x.ab * s.h / x.rep;
  b.op_sac = b.none;
  b.working = x.ab * 2 * s.h / x.rep;
  return b;
}

// Context parallelism, per local token of one attention layer (this rank holds seq/cp tokens).
// `saved` is kept for backward beyond plain attention; `working` exists while the layer runs.
// - Ring P2P (TransformerEngine AttnFuncWithCPAndKVP2P, Megatron's default cp_comm_type "p2p";
//   MindSpeed ring_context_parallel.py): K and V are concatenated into one buffer and a second
//   one receives the next rank's block (2 KV blocks in flight); forward keeps every step's
//   partial output and LSE (out_per_step, softmax_lse_per_step) until the final correction;
//   backward circulates KV and dKV together (2 × (KV + dKV)) and accumulates dQ.
// - All-gather (torchtitan's default context_parallel_rotate_method, torch's
//   _templated_ring_attention with the all-gather rotater): the layer's full K and V (cp blocks)
//   are gathered in forward and again in backward; partial results merge in fp32 (the SDPA
//   merger's output and LSE), and backward accumulates dQ, dK, dV in fp32.
// - Ulysses (DeepSpeed-Ulysses, torchtitan-npu): all-to-all turns seq/cp × heads into
//   seq × heads/cp, so attention's inputs keep their size; the attention output is kept both
//   before (flash backward) and after (o_proj input) the reverse all-to-all, and each all-to-all
//   needs a receive buffer. Key/value heads fewer than cp are repeated up to cp.
// - MindSpeed ring (MindSpeed core/context_parallel/ring_context_parallel.py AttentionWithCp,
//   what MindSpeed-LLM's megatron_cp_algo runs): forward concatenates K and V into cur_kv and
//   allocates next_kv and next_round_kv (empty_like: 3 KV blocks), merges each step's output and
//   softmax_max/sum into one running result (not one per step), and saves a clone of the last
//   KV block in place of the layer's own K and V (no net change to what is saved). Backward
//   allocates cur_dkv, next_dkv and next_round_dkv (3 KV-sized), dq, the KV cache's current and
//   received blocks (2 KV) and each step's dq, dk, dv from npu_fusion_attention_grad:
//   6 KV + 2 Q per local token.
struct ContextParallelBytes {
  double saved = 0;
  double working = 0;
};

ContextParallelBytes ContextParallelOf(const Context& x, const Shape& s) {
  ContextParallelBytes cp;
  const double q = s.q_dim / x.tp, o = s.o_dim / x.tp, heads = s.heads / x.tp;
  const double kv = (s.k_dim + s.v_dim) / x.tp;
  switch (x.cp_kind) {
    case CpKind::kRingP2p:
    case CpKind::kNpuRing: {
      // Megatron / MindSpeed with parallelism.ulysses_degree_in_cp = u > 1 (MindSpeed
      // ulysses_cp_algo, or hybrid_cp_algo with a ring over cp / u ranks;
      // core/context_parallel/ulysses_context_parallel.py UlyssesContextAttention): before the
      // all-to-all, MindSpeed-LLM repeats the key/value heads up to the query heads
      // (--kv-head-repeat-before-uly-alltoall, on by default: dot_product_attention.py
      // ulysses_context_parallel_forward_wrapper), so the all-to-all outputs that attention saves
      // hold K and V of q's size; the attention output is kept before (attention backward) and
      // after (o_proj input) the reverse all-to-all; each all-to-all needs a receive buffer.
      double ring_kv = kv;
      double ulysses_working = 0;
      if (x.ulysses > 1) {
        ring_kv = std::max(kv, 2 * q);
        cp.saved = x.ab * (ring_kv - kv) + x.ab * o;
        ulysses_working = x.ab * (q + ring_kv);
      }
      const double ring = x.cp / x.ulysses;
      double ring_working = 0;
      if (ring > 1 && x.cp_kind == CpKind::kNpuRing) {
        const double forward = x.ab * (3 * ring_kv + o) + x.lse_bytes * heads;
        const double backward = x.ab * (6 * ring_kv + 2 * q);
        ring_working = std::max(forward, backward);
      } else if (ring > 1) {
        const double forward = 2 * x.ab * ring_kv + ring * (x.ab * o + 4.0 * heads);
        const double backward = 2 * 2 * x.ab * ring_kv + x.ab * q;
        ring_working = std::max(forward, backward);
      }
      cp.working = std::max(ulysses_working, ring_working);
      break;
    }
    case CpKind::kAllGather: {
      const double forward = x.cp * x.ab * kv + 4.0 * (o + heads);
      const double backward = x.cp * x.ab * kv + 4.0 * (q + kv) + x.ab * kv;
      cp.working = std::max(forward, backward);
      break;
    }
    case CpKind::kUlysses: {
      const double head_dim = s.heads > 0 ? s.q_dim / s.heads : 0;
      const double kv_heads = s.heads > 0 && head_dim > 0 ? s.k_dim / head_dim : 0;
      const double repeated = std::max(0.0, x.cp - kv_heads) * 2 * head_dim / x.tp;
      cp.saved = x.ab * o + x.ab * repeated;
      cp.working = x.ab * (q + kv + repeated);
      break;
    }
  }
  return cp;
}

// DeepSeek-V3.2 sparse attention in training (DeepSeek-V3.2-Exp report §2.1: the lightning
// indexer scores every key for every query, I = Σ_j w_j · ReLU(q_j · k), and its KL loss against
// the main attention's distribution trains it), on the frameworks' default path, per query token
// of one layer. MindSpeed-LLM (tasks/models/transformer/dsa_indexer.py, unfused unless
// --use-fused-lightning-indexer and a fused loss are on):
// - bf16_index upcasts q and k and forms p = q·kᵀ in fp32, [b, index_heads, s, s], then
//   relu(p) and relu(p) · weights before summing the heads: ReLU's output is saved for backward
//   (4 B per head per key, `kept`), p and the weighted product are transient beside it, and the
//   backward holds two gradients of that shape at once;
// - get_attn_scores, for the loss's target, runs baddbmm into a new bf16 [b·heads/tp, s, s]
//   (besides the persistent global buffer it is given, DsaBufferBytes), then
//   F.softmax(…, dtype=float32), which casts its bf16 input to an fp32 copy before writing a new
//   fp32 output (ATen's softmax fuses the upcast only for fp16 on CUDA): (2 + 4 + 4) B per head
//   per key at once, transient, without autograd (q and k are detached).
// The indexer is replicated over TP (LinearNoTP); the main heads are split. With context
// parallelism q and k are gathered over the CP group first (ulysses_cp_algo), so each rank scores
// the whole sequence: its per-token figure is cp times larger. Megatron-LM's DSAttention
// (experimental_attention_variant/dsa.py compute_dsa_indexer_loss) likewise forms fp32
// [b·heads, s, s] scores and [s, b, index_heads, s] index scores unfused; the same figures are
// used for it.
struct DsaBytes {
  double kept = 0, working = 0;
};
DsaBytes DsaScoreBytes(const Context& x, const Shape& s) {
  DsaBytes d;
  if (!x.dsa_scores || s.index_heads <= 0) return d;
  const double keys = x.seq_kv * x.cp;
  const double index = 4.0 * s.index_heads * keys;
  const double main = (x.ab + 8.0) * (s.heads / x.tp) * keys;
  d.kept = index;
  d.working = std::max(main, 2.0 * index);
  return d;
}

// MindSpeed-LLM's get_attn_scores takes its [b·heads/tp, s, s] input from the process-wide
// global memory buffer (parallel_state.get_global_memory_buffer, "mpu"), which is allocated at the
// first forward and kept for the run: bytes per device (one microbatch of mbs sequences).
double DsaBufferBytes(const Config& c, const Layout& l, const Context& x, double mbs) {
  if (!x.dsa_scores || !x.ascend || c.model.attention != AttentionKind::kMla) return 0;
  const double s = static_cast<double>(c.training.seq_len);
  return mbs * static_cast<double>(c.model.num_heads) / static_cast<double>(l.tp) * s * s * x.ab;
}

LayerBytes AttentionBytes(const Context& x, const Shape& s) {
  LayerBytes b;
  const double qkv = (s.q_dim + s.k_dim + s.v_dim) / x.tp;
  const double heads = s.heads / x.tp;
  const double mask = x.dropout > 0 ? 1.0 : 0.0;
  b.input = x.ab * s.h / x.rep;
  double saved = NormBytes(x, s.h) / x.rep + x.ab * s.h / x.rep;  // norm, QKV input
  if (s.post_norms) saved += NormBytes(x, s.h) / x.rep;
  saved += x.ab * qkv;                        // q, k, v after RoPE
  if (x.rope_keeps_qkv) saved += x.ab * qkv;  // the QKV output, held by RoPE's saved q, k
  saved += s.latent > 0 ? x.ab * s.latent + NormBytes(x, s.latent) : 0;
  saved += x.ab * s.o_dim / x.tp;  // attention out = o_proj in
  b.norm_out = x.ab * s.h / x.rep;
  if (s.latent > 0) b.up_proj = x.ab * qkv * (x.rope_keeps_qkv ? 2 : 1);
  if (x.eager_attention) {
    // Softmax output per query row (+ dropout mask and dropped output when dropout > 0).
    b.scores = heads * x.seq_kv * (x.ab + mask * (1.0 + x.ab));
    saved += b.scores;
  } else {
    saved += x.lse_bytes * heads;  // flash attention's softmax statistics (fp32)
    if (x.alibi_pse) {
      b.scores = heads * x.seq_kv * x.ab;  // the scaled ALiBi bias (Context::alibi_pse)
      saved += b.scores;
    }
  }
  saved += mask * s.h / x.rep;  // residual dropout mask
  b.none = saved;
  // SAC "op": every other mm output (wq, wv) and the attention output + lse.
  b.op_sac_linear = x.ab * (s.q_dim + s.v_dim) / x.tp;
  b.op_sac = b.op_sac_linear + x.ab * s.o_dim / x.tp + 4.0 * heads;
  if (x.flex_region_keeps_qk) b.op_sac += x.ab * (s.q_dim + s.k_dim) / x.tp;
  b.working = x.ab * (qkv + 2 * s.h / x.rep) + (x.eager_attention ? x.ab * heads * x.seq_kv : 0);
  const DsaBytes dsa = DsaScoreBytes(x, s);
  b.none += dsa.kept;
  b.working += dsa.working;
  if (x.cp > 1) {
    const ContextParallelBytes cp = ContextParallelOf(x, s);
    b.none += cp.saved;
    b.op_sac += cp.saved;
    b.working += cp.working;
  }
  return b;
}

// Linear-attention token mixers (ModelArch::layer_mixer) keep neither seq × seq scores nor a
// KV cache; per token they save their projections and gates, and carry a dk × dv state per head
// that the chunked kernels recompute in backward (a transient, in `working`).
// - Gated DeltaNet, as Qwen3NextGatedDeltaNet calls fla's chunk_gated_delta_rule
//   (fla/ops/gated_delta_rule/chunk.py: save_for_backward(q, q_rstd, k, k_rstd, v, g, beta, A)
//   with 64-token chunks; q and k repeated to the value heads first): the in_proj outputs (conv
//   input, z, b, a), the conv1d + SiLU output, q/k/v, fp32 rstd and g, beta, one 64-wide row of
//   the chunk matrix A per head, the output and the gated norm's output.
// - Lightning attention (MiniMax-01 §2.2, block size 256): q/k/v before and after SiLU, the
//   output gate, the norm's input and output; the per-block kv states and intra-block scores
//   are recomputed.
// - Mamba-2 (Granite 4.0-H "mamba" layers) runs mamba_ssm's fused
//   mamba_split_conv1d_scan_combined (ops/triton/ssd_combined.py,
//   MambaSplitConv1dScanCombinedFn: save_for_backward(zxbcdt, …, out_x, …, rstd, …)): the in_proj
//   output (2·d_inner + 2·G·N + heads wide), the scan output out_x (d_inner) and the gated norm's
//   fp32 rstd (one per group); the conv output, the chunk states (heads × head_dim × N per
//   256-token chunk) and the norm output are recomputed in backward.
// - Mamba-1 (Mamba, Falcon-Mamba, Jamba's mamba layers) as mamba_ssm's mamba_inner_fn
//   (ops/selective_scan_interface.py, checkpoint_lvl 1): save_for_backward keeps xz (the in_proj
//   output, 2·d_inner), x_dbl (dt_rank + 2N), contiguous copies of B and C (2N), the scan output
//   (d_inner) and the fp32 scan intermediates (2N per channel per 2048-token chunk); conv1d_out
//   and delta are recomputed. Jamba's HF mixer calls the kernels one by one (its dt/B/C norms sit
//   between them) and keeps somewhat more; the fused figure is used for both.
LayerBytes LinearMixerBytes(const Context& x, const Shape& s, const ModelArch& m, MixerKind kind) {
  LayerBytes b;
  const double mask = x.dropout > 0 ? 1.0 : 0.0;
  b.input = x.ab * s.h / x.rep;
  double saved = NormBytes(x, s.h) / x.rep + x.ab * s.h / x.rep + mask * s.h / x.rep;
  if (kind == MixerKind::kGatedDeltaNet) {
    const double nv = static_cast<double>(m.linear_num_value_heads);
    const double dk = static_cast<double>(m.linear_key_head_dim);
    const double dv = static_cast<double>(m.linear_value_head_dim);
    const double kd = static_cast<double>(m.linear_num_key_heads) * dk;
    const double vd = nv * dv;
    const double conv = 2 * kd + vd;
    saved += x.ab * (conv + vd + 2 * nv) / x.tp;  // in_proj outputs
    saved += x.ab * conv / x.tp;                  // conv1d + SiLU
    saved += x.ab * (2 * nv * dk + vd) / x.tp;    // q, k (per value head), v
    saved += (3 * 4.0 + x.ab) * nv / x.tp;        // rstd q/k, g (fp32), beta
    saved += x.ab * 64 * nv / x.tp;               // A, one 64-wide row per head
    saved += x.ab * 2 * vd / x.tp;                // o, gated-norm output
    b.op_sac = x.ab * (conv + vd) / x.tp + x.ab * s.h / x.rep;
    b.working = x.ab * (conv + 2 * s.h / x.rep) + 4.0 * nv * dk * dv / 64 / x.tp;
  } else if (kind == MixerKind::kKimiDelta) {
    // Kimi Delta Attention (Kimi Linear §3; fla's chunk_kda, 64-token chunks), D = heads · d:
    // the q/k/v projections and their short-conv + SiLU outputs, the per-channel forget gate
    // (fp32, D: where KDA differs from Gated DeltaNet's one gate per head), beta per head, the
    // 64-wide A per head, the output gate and the gated norm's input and output; the chunk
    // states (d × d per head per chunk) are recomputed in backward.
    const double nv = static_cast<double>(m.linear_num_value_heads);
    const double d = static_cast<double>(m.linear_value_head_dim);
    const double width = nv * d;
    saved += x.ab * 3 * width / x.tp;           // q, k, v projections
    saved += x.ab * 3 * width / x.tp;           // short conv + SiLU
    saved += (4.0 * width + x.ab * nv) / x.tp;  // g (fp32), beta
    saved += x.ab * 64 * nv / x.tp;             // A, one 64-wide row per head
    saved += x.ab * 3 * width / x.tp;           // output gate, norm input, norm output
    b.op_sac = x.ab * 4 * width / x.tp + x.ab * s.h / x.rep;
    b.working = x.ab * (3 * width / x.tp + 2 * s.h / x.rep) + 4.0 * nv * d * d / 64 / x.tp;
  } else if (kind == MixerKind::kMamba1) {
    const double d_inner = static_cast<double>(m.mamba_inner);
    const double n2 = 2.0 * static_cast<double>(m.mamba_state);
    const double rank = static_cast<double>(m.mamba_dt_rank);
    saved +=
        x.ab * (2 * d_inner + rank + 2 * n2 + d_inner) / x.tp + 4.0 * d_inner * n2 / 2048 / x.tp;
    b.op_sac = x.ab * 3 * d_inner / x.tp + x.ab * s.h / x.rep;
    b.working = x.ab * (2 * d_inner / x.tp + 2 * s.h / x.rep);  // conv1d_out and delta
  } else if (kind == MixerKind::kRgLru) {
    // RecurrentGemmaRecurrentBlock: linear_y's output and its GeLU (the y branch), linear_x's
    // output (the conv input), the conv output (the RG-LRU input), the two sigmoid gates and
    // the log decay (fp32 in the RG-LRU's scan), the scan output and y · x = linear_out's input.
    const double lru = static_cast<double>(m.rglru_width) / x.tp;
    saved += x.ab * (2 * lru + lru + lru + lru + lru) + 4.0 * 3 * lru;
    b.op_sac = x.ab * 3 * lru + x.ab * s.h / x.rep;
    b.working = x.ab * (2 * lru + 2 * s.h / x.rep) + 4.0 * lru;
  } else if (kind == MixerKind::kShortConv) {
    // LFM2 Lfm2ShortConv.slow_forward: in_proj's output (B, C, x: 3h), B·x (conv input), the
    // depthwise conv output (h, read by C·conv_out's backward), C·conv_out = out_proj's input.
    const double h = s.h / x.tp;
    saved += x.ab * (3 * h + 3 * h);
    b.op_sac = x.ab * 3 * h + x.ab * s.h / x.rep;
    b.working = x.ab * (3 * h + 2 * s.h / x.rep);
  } else if (kind == MixerKind::kMamba2 && x.ascend) {
    // MindSpeed-LLM on Ascend replaces mamba_ssm's fused kernels with its pure-PyTorch SSD
    // (features_manager/models/mamba.py → tasks/models/ssm/state_space_duality.py), whose
    // autograd keeps per token, with d = d_inner/tp, H = heads/tp, G = groups/tp, P the head dim,
    // N the state, Q the chunk (bytes; every tensor traced through the source at 113b39e030):
    //  - the gated RMSNorm in fp32 (Mamba2RMSNorm, npu_rms_norm): z, y, silu(z), x·silu(z) (16d);
    //    conv1d's input and output (4d + 8GN), x, x·dt, the scan output and out_proj's input (8d);
    //  - B and C repeated to the heads, their copies and B·decay (8HN); dt, its exps and decays;
    //  - the chunked scan's Q × Q matrices: exp(segsum) in fp32 plus L, C·B, C·B·L in bf16
    //    (10HQ); two chunk-state copies (4HPN/Q);
    //  - with CP (mamba_cp_algo, SSDAllgatherOverlapFn): the saved xBC view keeps the whole
    //    in_proj output and the einsum another x·dt (+6d, +4GN, +8H), segsum and exp(segsum) in
    //    fp32 with C·B and C·B·L recomputed (8HQ), and ~32HQ of backward locals at once.
    // Checked on three MindSpeed CI Mamba-2 runs (8B TP8, 8B TP4 CP2, 2.7B CP2): −60/−54/−39%
    // with the fused kernel's figure, +1.7/−0.6/−3.0% with this.
    const double d = static_cast<double>(m.mamba_heads * m.mamba_head_dim) / x.tp;
    const double heads = static_cast<double>(m.mamba_heads) / x.tp;
    const double gn = static_cast<double>(m.mamba_groups * m.mamba_state) / x.tp;
    const double hn = heads * static_cast<double>(m.mamba_state);
    const double q = static_cast<double>(std::max<std::int64_t>(1, m.mamba_chunk));
    const double states = 4.0 * hn * static_cast<double>(m.mamba_head_dim) / q;
    const bool cp = x.cp > 1;
    saved += (cp ? 34 * d + 12 * gn + 8 * hn + 8 * heads * q + 26 * heads
                 : 28 * d + 8 * gn + 8 * hn + 10 * heads * q + 18 * heads) +
             states + 4;
    b.op_sac = saved;  // no per-op policy here: Megatron recomputes whole layers or none
    b.working = (cp ? 32.0 : 16.0) * heads * q + x.ab * (2 * d + 2 * s.h / x.rep);
  } else if (kind == MixerKind::kMamba2) {
    const double heads = static_cast<double>(m.mamba_heads);
    const double d_inner = heads * static_cast<double>(m.mamba_head_dim);
    const double bc = 2.0 * static_cast<double>(m.mamba_groups * m.mamba_state);
    const double zxbcdt = 2 * d_inner + bc + heads;
    saved += x.ab * (zxbcdt + d_inner) / x.tp + 4.0 * static_cast<double>(m.mamba_groups) / x.tp;
    b.op_sac = x.ab * (zxbcdt + d_inner) / x.tp + x.ab * s.h / x.rep;
    b.working = x.ab * (d_inner + bc + 2 * s.h / x.rep) +
                4.0 * d_inner * static_cast<double>(m.mamba_state) / 256 / x.tp;
  } else {
    const double heads = s.heads / x.tp;
    const double d = static_cast<double>(m.head_dim);
    const double width = heads * d;
    saved += x.ab * 6 * width;  // q, k, v before and after SiLU
    saved += x.ab * 3 * width;  // output gate, norm input, norm output
    saved += 4.0 * heads;       // norm statistics
    b.op_sac = x.ab * 4 * width;
    b.working = x.ab * (3 * width + 2 * s.h / x.rep) + 4.0 * heads * (d * d / 256 + 256);
  }
  b.none = saved;
  return b;
}

LayerBytes MlpBytes(const Context& x, const Shape& s, bool gated, bool moe) {
  LayerBytes b;
  const double mask = x.dropout > 0 ? 1.0 : 0.0;
  const double factor = gated ? x.gated_factor : x.plain_factor;
  double saved = NormBytes(x, s.h) / x.rep + x.ab * s.h / x.rep;  // norm, MLP input
  if (s.post_norms) saved += NormBytes(x, s.h) / x.rep;
  double width = s.mlp_width / x.tp;  // dense or shared experts
  double op = 0;
  if (moe) {
    // Router logits and probabilities (fp32), then each token's top-k copies: the permuted
    // input, the experts' intermediates (split by ETP) and their outputs for the weighted sum.
    double routed = s.top_k / x.rep;
    saved += 8.0 * s.experts / x.rep;
    // gpt-oss's clamped SwiGLU run eagerly keeps, per routed copy, the biased up-projection
    // (2F: both clamps read it), the clamped gate, σ(1.702·gate), the gated product, up + 1 and
    // the down-projection's input (F each): 7F, where SiLU(gate)·up keeps 4F. Compiled (or in
    // Megatron's fused kernels) the partitioner recomputes the element-wise chain.
    const double routed_factor =
        s.clamped_swiglu && !x.compiled && x.framework != Framework::kMegatron ? 7.0 : factor;
    // torchtitan's combine (models/common/token_dispatcher.py) upcasts the experts' outputs to
    // fp32 before weighting them by the router scores, so the multiply keeps an fp32 copy. A
    // compiled block fuses the upcast into the multiply: AOTAutograd's min-cut partitioner
    // (torch/_functorch/partitioners.py) saves the bf16 output and recomputes the cheap cast in
    // backward. Checked on tests/data/torchtitan_runs.jsonl: compiled Qwen3-30B-A3B SAC gains
    // 1.19–1.37 MiB a token between batches, 1.29 with this, 1.42 without.
    const double output_bytes = x.torchtitan && !x.compiled ? 4.0 : x.ab;
    // Megatron's all-to-all dispatcher (core/transformer/moe/token_dispatcher.py
    // MoEAlltoAllTokenDispatcher) all-gathers the tokens it received over the expert-TP group
    // before the experts (gather_from_sequence_parallel_region, group=expt_tp) and
    // reduce-scatters their output: each ETP rank computes its I/etp slice for etp × the routed
    // copies, so the permuted input and the intermediates are etp × larger than one rank's
    // share; the combined output comes back at the local count.
    const double gathered = x.framework == Framework::kMegatron ? x.etp : 1.0;
    const double copies = routed * ((x.ab * gathered + output_bytes) * s.h +
                                    routed_factor * x.ab * gathered * s.expert_width / x.etp);
    b.routed = 8.0 * s.experts / x.rep + copies;
    b.routed_act = routed * x.ab * gathered * s.expert_width / x.etp;
    saved += copies;
    op += 4.0 * s.experts / x.rep + routed * x.ab * (s.expert_width / x.etp + s.h);
    width = s.shared_width / x.tp;
  }
  saved += factor * x.ab * width;
  saved += mask * s.h / x.rep;
  b.none = saved;
  b.norm_out = x.ab * s.h / x.rep;
  (moe ? b.shared : b.dense) = factor * x.ab * width;
  // SAC "op": w1 and w2 outputs (every other mm).
  b.op_sac = op + x.ab * (width + s.h / x.rep);
  if (x.torchtitan) {
    // torchtitan distributed/activation_checkpoint.py SelectiveAC: the save set is PyTorch's
    // compute-intensive ops (torch/_functorch/partitioners.py get_default_op_list: mm, addmm,
    // bmm, SDPA, _scaled_mm — not _grouped_mm) plus all_to_all_single and topk, minus every
    // second mm/linear (counted per block; the router gate is forced to recompute). So a dense
    // or shared-expert MLP keeps w1's and w2's outputs (the attention's four linears leave the
    // count even); routed experts keep the top-k choice (fp32 scores + int64 ids) and, with EP,
    // the two all-to-all outputs (dispatched tokens in, combined tokens back), while their
    // grouped GEMMs are recomputed.
    double routed = 0;
    if (moe) {
      routed = s.top_k * 12.0 / x.rep;
      if (x.ep > 1) routed += 2.0 * s.top_k / x.rep * x.ab * s.h;
    }
    const double has_dense = width > 0 ? 1.0 : 0.0;
    // torch.compile: AOTAutograd's partitioner saves only what the backward graph reads; w2's
    // output feeds the residual add, whose backward reads nothing, so it is not kept.
    const double w2_out = x.compiled ? 0.0 : x.ab * s.h / x.rep;
    b.op_sac_linear = has_dense * (x.ab * width + w2_out);
    b.op_sac = routed + b.op_sac_linear;
  }
  const double expert_gather = x.framework == Framework::kMegatron ? x.etp : 1.0;
  const double transient_width =
      width + (moe ? s.top_k * expert_gather * s.expert_width / x.etp / x.rep : 0);
  b.working = x.ab * (3 * transient_width + 2 * s.h / x.rep);
  if (moe && x.torchtitan) {
    // Going back through combine and dispatch, each routed copy's gradient exists as the fp32
    // product's gradient and as bf16 copies before and after the all-to-all / unpermute. Compiled,
    // inductor fuses the fp32 gradient, the cast and the unpermute gather into one kernel that
    // writes one bf16 gradient per routed copy (same check as above).
    b.working += s.top_k / x.rep * (x.compiled ? x.ab : 4.0 + 2 * x.ab) * s.h;
  }
  return b;
}

}  // namespace

namespace {

// Per-token bytes one block keeps under the configured policy, and its transient peak.
struct PolicyBytes {
  double kept = 0;       // saved until this block's backward
  double recompute = 0;  // re-materialised during its backward (AC), on top of `kept`
  double working = 0;    // gradient temporaries during its backward
  double scores = 0;
  double swapped = 0;  // kept on the host instead (MindSpeed swap-attention), not in `kept`
};

PolicyBytes BlockUnderPolicy(const Config& c, const Context& x, const Shape& s, bool moe,
                             bool checkpointed, MixerKind mixer = MixerKind::kAttention,
                             bool has_mlp = true, bool nvfp4 = false,
                             bool outside_partial_recompute = false) {
  const bool gated = c.model.mlp == MlpKind::kGated;
  // Nemotron-H blocks hold a mixer or an MLP (ModelArch::layer_has_mlp, MixerKind::kNone): the
  // missing part saves nothing; the block input is what full checkpointing keeps either way.
  LayerBytes attn;
  if (mixer == MixerKind::kNone) {
    attn.input = x.ab * s.h / x.rep;
  } else if (mixer == MixerKind::kAttention && s.attention_linear) {
    attn = LinearPartBytes(x, s);
  } else if (mixer == MixerKind::kAttentionMamba2 || mixer == MixerKind::kZambaHybrid ||
             mixer == MixerKind::kZambaShared) {
    // Zamba2's hybrid layers run the Mamba-2 mixer and then a shared attention block (and its
    // MLP): both save their activations; counted like Falcon-H1's side-by-side pair.
    // Falcon-H1: attention and the Mamba-2 mixer read one normed input (FalconH1DecoderLayer):
    // both save what they save alone, the norm and its output once.
    attn = AttentionBytes(x, s);
    const LayerBytes mamba = LinearMixerBytes(x, s, c.model, MixerKind::kMamba2);
    const double shared = NormBytes(x, s.h) / x.rep + x.ab * s.h / x.rep;
    attn.none += mamba.none - shared;
    attn.op_sac += mamba.op_sac - x.ab * s.h / x.rep;
    attn.working = std::max(attn.working, mamba.working);
  } else {
    attn = mixer == MixerKind::kAttention ? AttentionBytes(x, s)
                                          : LinearMixerBytes(x, s, c.model, mixer);
  }
  LayerBytes mlp;
  if (has_mlp) mlp = s.mlp_linear ? LinearPartBytes(x, s) : MlpBytes(x, s, gated, moe);
  const double none = attn.none + mlp.none;
  PolicyBytes p;
  p.working = std::max(attn.working, mlp.working);
  p.scores = attn.scores;
  const AcMode mode = c.activation_checkpoint.mode;
  const bool op_level = x.op_level_sac;
  if (mode == AcMode::kSelective && x.framework == Framework::kMegatron) {
    // Megatron and MindSpeed --recompute-granularity selective: core attention is recomputed
    // (Korthikanti et al. 2022 §4.2; transformer_block / attention.py
    // _checkpointed_attention_forward), whatever selective_ac_option says (a torchtitan key):
    // the softmax scores and their dropout are not kept. --recompute-modules names other parts
    // (transformer_config.py recompute_modules; transformer_layer.py checkpoints the norms with
    // CheckpointWithoutOutput, multi_latent_attention.py the up-projections, mlp.py / experts.py
    // the MLP and the experts' activation, moe_layer.py the MoE layer): what those parts keep
    // between their input and their output is dropped and rebuilt in backward.
    const std::uint32_t m = c.activation_checkpoint.recompute_modules == 0
                                ? kRecomputeCoreAttn
                                : c.activation_checkpoint.recompute_modules;
    double dropped = 0;
    if (m & kRecomputeCoreAttn) dropped += attn.scores;
    if (m & kRecomputeLayernorm) dropped += attn.norm_out + mlp.norm_out;
    if (m & kRecomputeMlaUpProj) dropped += attn.up_proj;
    if (m & kRecomputeMlp) dropped += mlp.dense;
    if (m & kRecomputeMoe) {
      dropped += mlp.routed + mlp.shared;
    } else {
      if (m & kRecomputeMoeAct) dropped += mlp.routed_act;
      if (m & kRecomputeSharedExperts) dropped += mlp.shared;
    }
    dropped = std::min(dropped, std::max(0.0, none - attn.input));
    p.kept = none - dropped;
    p.recompute = dropped;
  } else if (mode == AcMode::kNone || (mode == AcMode::kSelective && !op_level && !checkpointed) ||
             outside_partial_recompute) {
    p.kept = none;
  } else if (mode == AcMode::kFull || checkpointed) {
    p.kept = attn.input;
    p.recompute = none;
  } else {
    p.kept = attn.input + attn.op_sac + mlp.op_sac;
    if (nvfp4 && x.torchtitan) {
      // NVFP4 blocks (Training::nvfp4_layers): TorchAO's NVFP4Linear runs its GEMMs inside the
      // nvfp4_mm_triton autograd function (prototype/moe_training/nvfp4_training/
      // nvfp4_linear.py) with torch.nn.functional.scaled_mm, which is neither aten.mm/linear nor
      // in SelectiveAC's save set (distributed/activation_checkpoint.py _get_default_save_ops:
      // partitioners.py's compute-intensive ops, SDPA, topk, the comm ops). So per-op SAC keeps
      // none of these blocks' linear outputs, and the FP4 codes the function saves are rebuilt
      // in backward with the rest; attention's output and statistics are still kept.
      // Checked on torchtitan's nvfp4.md runs (GB200, SAC, compiled): Llama 3 8B with 27 of 32
      // blocks NVFP4 peaked 63.5 GiB below bf16, Qwen3 8B with 30 of 36 blocks 34.3 GiB below.
      p.kept -= attn.op_sac_linear + mlp.op_sac_linear;
    }
    p.recompute = std::max(0.0, none - p.kept);
  }
  // MindSpeed --swap-attention (mindspeed/core/memory/swap_attention, features_manager/memory/
  // swap_attention.py): the default --swap-modules "input_norm,self_attention,post_attention_norm"
  // are wrapped so that every tensor they save for backward is copied to host memory in forward
  // (SwapPrefetch.pack_hook) and prefetched back a layer ahead in backward; with no
  // --recompute-method every layer of the rank is swapped (adaptive_recompute.py
  // solve_prefetch_policy: num_prefetch = layers per rank). What the MLP saves stays, the
  // post-attention norm's output included, as fc1 saves it too. Blocks that keep only their
  // input (full recompute) have nothing to swap.
  if (c.activation_checkpoint.swap_attention && x.framework == Framework::kMegatron &&
      p.kept > attn.input) {
    const double attention_side =
        attn.none - (p.recompute > 0 ? attn.scores : 0) + NormBytes(x, s.h) / x.rep;
    p.swapped = std::min(p.kept, attention_side);
    p.kept -= p.swapped;
  }
  return p;
}

// How many microbatch-chunks of this stage are alive at its backward peak, and how many of its
// blocks each chunk covers. 1F1B: pp - stage (PipeDream-Flush); GPipe: every microbatch;
// interleaved (v chunks per rank): Megatron's warmup (pp - stage - 1)·2 + (v - 1)·group, plus
// one, where group is the microbatch group size per virtual stage (PP by default).
struct InFlight {
  double chunks = 1;
  double layers_per_chunk = 0;
  std::int64_t microbatches = 1;
};

// Microbatches a pipeline stage runs per step: the local batch in pipeline microbatches.
std::int64_t PipelineMicrobatches(const Config& c) {
  const std::int64_t mbs = std::max<std::int64_t>(1, c.parallelism.pp_microbatch_size);
  return std::max<std::int64_t>(1, c.training.local_batch_size / mbs);
}

InFlight PipelineInFlight(const Config& c, const Layout& l, const StageParams& st, int stage) {
  InFlight f;
  f.layers_per_chunk = static_cast<double>(st.num_layers);
  if (l.pp <= 1) return f;
  const std::int64_t n_micro = PipelineMicrobatches(c);
  const std::int64_t remaining = l.pp - stage;
  switch (c.parallelism.pp_schedule) {
    case PpSchedule::kGPipe:
      f.microbatches = n_micro;
      break;
    case PpSchedule::k1F1B:
    case PpSchedule::kZeroBubble:
      f.microbatches = std::min(remaining, n_micro);
      break;
    case PpSchedule::kInterleaved1F1B: {
      // Model chunks per rank: the fullest rank's layers over layers per virtual stage, rounded
      // up (with a per-rank list, e.g. MindSpeed's placeholder layers taken out, a rank may
      // hold short virtual stages; every rank runs as many chunks as the schedule has);
      // 2 when the config gives no virtual-stage size.
      const std::int64_t lps = c.parallelism.pp_layers_per_stage;
      const std::int64_t fullest = st.fullest_stage_layers;
      const std::int64_t v = lps > 0 ? std::max<std::int64_t>(1, (fullest + lps - 1) / lps) : 2;
      // Megatron's microbatch_group_size_per_vp_stage (schedules.py get_pp_rank_microbatches:
      // warmup += (num_model_chunks - 1) * microbatch_group_size_per_vp_stage), default PP.
      const std::int64_t group =
          c.parallelism.vp_microbatch_group > 0 ? c.parallelism.vp_microbatch_group : l.pp;
      std::int64_t warmup = (remaining - 1) * 2 + (v - 1) * group;
      std::int64_t chunks = std::min(warmup + 1, n_micro * v);
      f.layers_per_chunk = static_cast<double>(st.num_layers) / static_cast<double>(v);
      f.chunks = static_cast<double>(chunks);
      // A rank with fewer layers than its v virtual stages of lps hold: on the first rank the
      // short stage is the first (Megatron's --account-for-embedding-in-pipeline-split builds
      // the embedding in its place), on the last rank the last (the loss's place, or MindSpeed's
      // placeholder layers at the model's end); elsewhere the shortfall is spread. The forwards
      // in flight run chunk (k / group) mod v for k = 0, 1, … (schedules.py
      // get_model_chunk_id), so the layers they hold are summed chunk by chunk.
      const std::int64_t short_by = lps > 0 ? v * lps - st.num_layers : 0;
      const bool first = stage == 0, last = stage == l.pp - 1;
      if (short_by > 0 && v <= 64 && (first || last)) {
        std::int64_t sizes[64];
        std::int64_t left = short_by;
        for (std::int64_t i = 0; i < v; ++i) {
          const std::int64_t c = first ? i : v - 1 - i;  // the end the shortfall sits at
          const std::int64_t cut = std::min(left, lps);
          sizes[c] = lps - cut;
          left -= cut;
        }
        double held = 0;
        for (std::int64_t k = 0; k < chunks; ++k)
          held += static_cast<double>(sizes[(k / group) % v]);
        f.layers_per_chunk = held / static_cast<double>(chunks);
      }
      f.microbatches = std::min(n_micro, (chunks + v - 1) / v);
      return f;
    }
  }
  f.chunks = static_cast<double>(f.microbatches);
  return f;
}

// torchtitan's loss at its peak, per token (components/loss.py, trainer.py).
// - Eager cross_entropy_loss: F.cross_entropy(pred.float()); the trainer deletes `pred` before
//   backward, so log_softmax's fp32 output is what is kept; its backward holds that output, the
//   incoming fp32 gradient and the fp32 result at once: 12 bytes per logit.
// - Compiled loss ("loss" in compile.components): Inductor fuses upcast, log-softmax and NLL; the
//   partitioner keeps the bf16 logits and per-row statistics and the backward writes bf16
//   gradients in one kernel: 2 + 2 bytes per logit.
// - TP (_LossParallelCrossEntropy, vocab-sharded): forward holds the bf16 shard, its fp32 copy,
//   `shifted` and exp(shifted) (14 B); backward holds the saved fp32 log_probs, grad_input
//   (zeros_like), exp(log_probs) and their sum at once: 16 bytes per logit.
// - ChunkedLossWrapper (num_chunks = loss_chunks > 1): lm_head and the loss run chunk by chunk,
//   each chunk's backward right after its forward, so only T/N tokens of logits exist, plus the
//   chunk's bf16 logits held by the loop, plus a GradAccumulator of fp32 [T, hidden] (the
//   decoder norm's output is replicated over TP before chunking).
double TorchtitanLossBytesPerToken(const Config& c, const Context& x, double vocab, double h) {
  const bool compiled_loss = c.compile.enable && c.compile.loss;
  const bool loss_parallel = x.tp > 1;
  const double per_logit = loss_parallel ? 16.0 : (compiled_loss ? 4.0 : 12.0);
  const double chunks = static_cast<double>(std::max<std::int64_t>(1, c.training.loss_chunks));
  if (chunks <= 1) return vocab * per_logit;
  const double chunk_logits = compiled_loss && !loss_parallel ? 0.0 : x.ab;  // compiled: in 4
  return vocab * (per_logit + chunk_logits) / chunks + 4.0 * h;
}

// Logits and loss at the start of backward, per token, for this device.
double LossBytesPerToken(const Config& c, const Context& x) {
  const double vocab = static_cast<double>(c.model.vocab_size) / x.tp;  // vocab-parallel
  // The final norm's saved tensors and the head's (gathered) input.
  const double h = static_cast<double>(c.model.hidden_size);
  double head_input = NormBytes(x, h) / x.rep + x.ab * h;
  // Logit soft-capping (ModelArch::final_logit_softcapping): cap · tanh(logits / cap) in eager
  // ops (MindSpeed-LLM gpt_model.py, transformers Gemma2ForCausalLM); the divisions by a
  // number save nothing, tanh keeps its output for backward, one more [tokens, V/tp] tensor in
  // the compute dtype.
  if (c.model.final_logit_softcapping > 0 && !(c.compile.enable && c.compile.loss))
    head_input += x.ab * vocab;
  if (x.torchtitan) return TorchtitanLossBytesPerToken(c, x, vocab, h) + head_input;
  const bool fused = c.framework == Framework::kMegatron || (c.compile.enable && c.compile.loss);
  const double per_logit = fused ? 6.0 : 12.0;
  const double chunks = static_cast<double>(std::max<std::int64_t>(1, c.training.loss_chunks));
  // Chunked CE keeps the bf16 logits and upcasts one chunk at a time.
  const double logits = chunks > 1 ? x.ab + per_logit / chunks : per_logit;
  return vocab * logits + head_input;
}

// Megatron's --defer-embedding-wgrad-compute on the last pipeline stage, bytes at its peak. The
// output layer's forward appends its input to embedding_activation_buffer and its backward
// appends the logits' gradient (grad_output, [s, b, V/tp] in the compute dtype) to
// grad_output_buffer instead of computing the weight gradient, for the first
// --wgrad-deferral-limit microbatches of the iteration (0 = all; tensor_parallel/layers.py
// LinearWithGradAccumulationAndAsyncCommunication). Both buffers are drained in the pipeline
// flush (schedules.py finish_embedding_wgrad_compute). The stage peaks in a microbatch's loss
// backward (the fp32 logits), and by the last microbatch's the earlier ones are buffered:
// min(limit, microbatches − 1). With sequence parallelism the kept input is the sequence shard
// (the all-gather happens inside the GEMM). Megatron CI gpt3_mcore_te_tp2_pp2_resume_torch_dist
// with and without defer_embedding_wgrad_compute (limit 2, 4 microbatches of 4 × 1024 tokens,
// V/tp = 25216, h 512): 2 × 4096 × (25216 + 512) × 2 B = 421,527,552 B; the logged peaks differ
// by 467 MB.
double DeferredWgradBytes(const Config& c, const Layout& l, const Context& x, const StageParams& st,
                          double tokens) {
  if (!st.has_head || l.pp <= 1 || c.framework != Framework::kMegatron ||
      !c.training.defer_embedding_wgrad_compute)
    return 0;
  const std::int64_t micro = PipelineMicrobatches(c);
  const std::int64_t limit = c.training.wgrad_deferral_limit;
  const std::int64_t held = limit > 0 ? std::min(limit, micro - 1) : micro - 1;
  const double vocab = static_cast<double>(c.model.vocab_size) / x.tp;
  const double h = static_cast<double>(c.model.hidden_size);
  return static_cast<double>(held) * tokens * x.ab * (vocab + h / x.rep);
}

// The explicit causal mask a Megatron-family job keeps on the device, in bytes (bool).
// - Data loader (create_attention_mask_in_dataloader, on unless
//   --no-create-attention-mask-in-dataloader): Megatron's GPTDataset builds a [1, s, s] mask per
//   sample (core/datasets/gpt_dataset.py _get_ltor_masks_and_position_ids, `< 0.5` → bool),
//   get_batch copies the microbatch's [mbs, 1, s, s] to the device and, with CP,
//   get_batch_on_this_cp_rank keeps this rank's query rows ([mbs, 1, s/cp, s]). It lives through
//   the microbatch's forward, loss included; MindSpeed-LLM's attention also keeps a reference to
//   it on the module (dot_product_attention.py flash_attention_forward `self.attention_mask =
//   attention_mask`; legacy FlashSelfAttention likewise), so on Ascend it is still there in
//   backward.
// - MindSpeed without flash attention and without a loader mask: generate_attention_mask
//   (MindSpeed model/transformer.py) builds a global [mbs, 1, s, s] bool mask, kept for the run.
//   With flash attention its mask is a compressed 2048 × 2048 (4 MiB), left out.
// With pipeline parallelism Megatron-LM's get_batch gives middle stages no batch at all
// (pretrain_gpt.py); MindSpeed-LLM's get_batch_on_this_tp_rank broadcasts the mask to them too.
double AttentionMaskBytes(const Config& c, const Layout& l, const Context& x, const StageParams& st,
                          double mbs) {
  if (c.framework != Framework::kMegatron) return 0;
  const double s = static_cast<double>(c.training.seq_len);
  // MindSpeed-LLM's ALiBi bias, built once per shape and kept on the attention module
  // (Context::alibi_pse): one [mbs, heads/tp, s, s] tensor in the compute dtype, alibi_pse, and
  // the [heads/tp, s, s] square bias it was built from, which the shared Alibi object keeps as
  // alibi_tensor (tasks/models/common/alibi.py get_alibi_pse; modellink/model/alibi.py at
  // 74d7a098fb alike). Assumes --square-alibi-mask, as MindSpeed-LLM's ALiBi scripts pass.
  const double alibi = x.alibi_pse ? (mbs + 1) * static_cast<double>(c.model.num_heads) /
                                         static_cast<double>(l.tp) * s * s * x.ab
                                   : 0.0;
  if (c.training.create_attention_mask_in_dataloader) {
    if (!x.ascend && !st.has_embedding && !st.has_head) return alibi;
    const double mask = mbs * (s / static_cast<double>(l.cp)) * s;
    // MindSpeed-LLM's sliding-window layers (--interleave-sliding-window) each build their own
    // mask from it (tasks/models/transformer/transformer_layer.py: torch.where over a tril of
    // ones_like(mask), then .bool()), which their attention module keeps until its next
    // forward: one more mask of the same shape per sliding layer of the stage.
    double sliding = 0;
    if (x.ascend && c.model.sliding_window > 0)
      for (std::int64_t layer = st.first_layer; layer < st.first_layer + st.num_layers; ++layer)
        if (!c.model.FullAttentionLayer(layer)) sliding += 1;
    return (1 + sliding) * mask + alibi;
  }
  if (x.ascend && x.eager_attention) return mbs * s * s;
  return alibi;
}

}  // namespace

StageActivations ComputeActivations(const Config& c, const Layout& l, const StageParams& st,
                                    int stage_index) {
  StageActivations out;
  ActivationBreakdown& b = out.breakdown;
  const Context x = ContextOf(c, l);
  Shape s = ShapeOf(c.model);
  OneKvHeadPerRank(s, c.model, static_cast<double>(c.model.head_dim), x.tp);
  const std::int64_t mbs = SequencesPerMicrobatch(c, l.pp);
  const double tokens = static_cast<double>(mbs) * static_cast<double>(c.training.seq_len) /
                        static_cast<double>(l.cp);
  const InFlight f = PipelineInFlight(c, l, st, stage_index);
  std::int64_t k_every = 0;
  if (c.activation_checkpoint.mode == AcMode::kSelective && c.framework != Framework::kMegatron &&
      c.activation_checkpoint.selective_ac_option != "op")
    k_every =
        std::max<long long>(1, std::atoll(c.activation_checkpoint.selective_ac_option.c_str()));

  double kept_per_token = 0, worst_transient = 0, scores = 0, first_kept = 0;
  double swapped_per_token = 0, worst_swapped = 0;
  // A block's bytes depend on the layer only through (MoE?, checkpointed?, token mixer): the few
  // kinds a model has are computed once each, not once per layer (a 126-layer model has ≤ 4).
  struct Memo {
    bool moe, checkpointed, has_mlp, nvfp4, outside_partial;
    MixerKind mixer;
    std::int64_t heads, kv, width, head_dim;  // per layer only where shapes vary (DeciLM, Gemma 4)
    PolicyBytes bytes;
  };
  Memo memo[12];
  const std::int64_t partial_recompute = c.activation_checkpoint.mode == AcMode::kFull
                                             ? c.activation_checkpoint.recompute_num_layers
                                             : 0;
  int memo_size = 0;
  int last = -1;  // the memo entry the previous block used
  const bool varies = c.model.ShapesVaryByLayer();
  for (std::int64_t layer = st.first_layer; layer < st.first_layer + st.num_layers; ++layer) {
    bool moe = c.model.num_experts > 0 &&
               static_cast<std::size_t>(layer) < c.model.layer_is_moe.size() &&
               c.model.layer_is_moe[static_cast<std::size_t>(layer)];
    // torchtitan's block-interval SAC (distributed/activation_checkpoint.py before the 2026-06
    // policy refactor) bumps a process-wide counter before testing `count % k == 0`: the k-th,
    // 2k-th, … block this rank builds is checkpointed, not the first. Other frameworks: id % k.
    const std::int64_t ordinal = x.torchtitan ? layer - st.first_layer + 1 : layer;
    bool checkpointed = k_every > 0 && (ordinal % k_every == 0);
    // Megatron --recompute-method block (transformer_block.py _checkpointed_forward): the first
    // recompute_num_layers blocks of each stage's chunk are recomputed, the rest keep all they
    // save. With virtual stages each chunk counts from its own first block.
    bool outside_partial = false;
    if (partial_recompute > 0) {
      const auto in_chunk =
          static_cast<std::int64_t>(std::fmod(static_cast<double>(layer - st.first_layer),
                                              std::max(1.0, std::round(f.layers_per_chunk))));
      outside_partial = in_chunk >= partial_recompute;
    }
    const MixerKind mixer = c.model.MixerOf(layer);
    const bool has_mlp = c.model.HasMlp(layer);
    // NVFP4 converts blocks by their global index (torchtitan fqns "layers.{i}."), whatever the
    // pipeline stage.
    const bool nvfp4 = c.training.nvfp4_layers < 0 || layer < c.training.nvfp4_layers;
    const std::int64_t heads = varies ? c.model.HeadsOf(layer) : 0;
    const std::int64_t kv = varies ? c.model.KvHeadsOf(layer) : 0;
    const std::int64_t width = varies ? c.model.MlpWidthOf(layer) : 0;
    const std::int64_t head_dim = varies ? c.model.HeadDimOf(layer) : 0;
    const auto same = [&](const Memo& m) {
      return m.moe == moe && m.checkpointed == checkpointed && m.mixer == mixer &&
             m.has_mlp == has_mlp && m.nvfp4 == nvfp4 && m.outside_partial == outside_partial &&
             m.heads == heads && m.kv == kv && m.width == width && m.head_dim == head_dim;
    };
    // Runs of identical blocks are the common case: try the previous block's kind first.
    const PolicyBytes* found = nullptr;
    if (last >= 0 && same(memo[last])) found = &memo[last].bytes;
    for (int i = 0; found == nullptr && i < memo_size; ++i) {
      if (same(memo[i])) {
        found = &memo[i].bytes;
        last = i;
      }
    }
    PolicyBytes computed;
    if (!found) {
      Shape shape = s;
      if (varies) {
        shape = LayerShape(c.model, s, layer);
        OneKvHeadPerRank(shape, c.model, static_cast<double>(c.model.HeadDimOf(layer)), x.tp);
      }
      computed =
          BlockUnderPolicy(c, x, shape, moe, checkpointed, mixer, has_mlp, nvfp4, outside_partial);
      if (memo_size < 12) {
        memo[memo_size] = {moe,   checkpointed, has_mlp, nvfp4,    outside_partial, mixer,
                           heads, kv,           width,   head_dim, computed};
        last = memo_size++;
      }
      found = &computed;
    }
    const PolicyBytes& p = *found;
    kept_per_token += p.kept;
    swapped_per_token += p.swapped;
    worst_swapped = std::max(worst_swapped, p.swapped);
    if (layer == st.first_layer) first_kept = p.kept;
    worst_transient = std::max(worst_transient, p.recompute + p.working);
    scores = std::max(scores, p.scores);
  }
  const double layers = std::max<double>(1, static_cast<double>(st.num_layers));
  const double per_layer_token = kept_per_token / layers;
  b.bytes_per_token_per_layer = per_layer_token;
  b.k_equivalent = per_layer_token / (s.h * x.ab);
  b.per_layer = ToBytes(per_layer_token * tokens);
  b.layers_kept = static_cast<std::int64_t>(std::llround(f.chunks * f.layers_per_chunk));
  b.microbatches_in_flight = f.microbatches;
  double saved = kept_per_token * tokens * f.chunks * (f.layers_per_chunk / layers);
  b.recompute_layer = ToBytes(worst_transient * tokens);
  b.attention_scores = ToBytes(scores * tokens);
  if (st.has_embedding) b.embedding_output = ToBytes(x.ab * s.h / x.rep * tokens * f.chunks);
  double loss = st.has_head ? LossBytesPerToken(c, x) * tokens : 0;
  if (st.has_head && c.training.mtp && c.model.num_mtp_layers > 0) {
    // MTP on the last stage (DeepSeek-V3 §2.2; Megatron multi_token_prediction.py): each depth
    // normalises the hidden state and the next token's embedding, projects their concatenation
    // (2h → h), runs one transformer block and the shared head, and computes its own loss, so
    // at the start of backward every depth's block activations and logits/loss are held.
    const double depths = static_cast<double>(c.model.num_mtp_layers);
    // Step-3.5's MTP blocks are dense and sliding-window (mtp_dense, mtp_sliding).
    const bool moe = c.model.num_experts > 0 && !c.model.mtp_dense &&
                     !c.model.layer_is_moe.empty() && c.model.layer_is_moe.back();
    Shape mtp_shape = s;
    if (c.model.MtpHeads() != c.model.num_heads)
      SetQueryHeads(mtp_shape, c.model.MtpHeads(), c.model.head_dim);
    const PolicyBytes block = BlockUnderPolicy(c, x, mtp_shape, moe, false);
    const double input = 2 * NormBytes(x, s.h) / x.rep + x.ab * 2 * s.h / x.rep;
    saved += depths * (input + block.kept) * tokens * f.microbatches;
    worst_transient = std::max(worst_transient, block.recompute + block.working);
    b.recompute_layer = ToBytes(worst_transient * tokens);
    loss *= 1 + depths;
  }
  if (st.has_head && c.framework == Framework::kMegatron && c.training.cross_entropy_fusion) {
    // --cross-entropy-loss-fusion, native: megatron/core/fusions/fused_cross_entropy.py runs
    // calculate_gradients under jit_fuser (torch.compile, megatron/core/jit.py). It updates the
    // saved fp32 softmax in place; compiled, that input mutation is functionalized, so the
    // backward writes a new fp32 [tokens, V/tp] buffer beside the saved one before its bf16
    // cast. The unfused path (tensor_parallel/cross_entropy.py) updates in place: 4 more bytes
    // per logit, once (the backward runs one loss at a time, MTP's included). Megatron's CI
    // pair gpt3_mcore_te_tp2_pp2_{resume_torch_dist,cross_entropy_loss_fusion} differs by
    // 410,255,360 B; 4 × 4096 tokens × 25216 = 413,138,944 B.
    loss += 4.0 * static_cast<double>(c.model.vocab_size) / x.tp * tokens;
  }
  b.logits_and_loss = ToBytes(loss);
  const double dsa_buffer = DsaBufferBytes(c, l, x, static_cast<double>(mbs));
  b.dsa_scores_buffer = ToBytes(dsa_buffer);
  const double mask = AttentionMaskBytes(c, l, x, st, static_cast<double>(mbs));
  b.attention_mask = ToBytes(mask);
  const double deferred = DeferredWgradBytes(c, l, x, st, tokens);
  b.deferred_wgrad_buffers = ToBytes(deferred);
  if (c.activation_checkpoint.offload) {
    // Saved activations go to pinned host memory as they are produced; about two blocks'
    // worth are on the device at a time (one being offloaded, one being brought back).
    double on_device = std::min(saved, 2.0 * per_layer_token * tokens);
    b.offloaded_to_host = ToBytes(saved - on_device);
    saved = on_device;
  }
  if (swapped_per_token > 0) {
    // Swapped attention tensors: on the host, but for the layer whose copy is in flight and
    // the one prefetched ahead of backward (SwapPrefetch: one layer ahead).
    const double host = swapped_per_token * tokens * f.chunks * (f.layers_per_chunk / layers);
    const double window = std::min(host, 2.0 * worst_swapped * tokens);
    b.offloaded_to_host += ToBytes(host - window);
    saved += window;
  }
  b.saved_layers = ToBytes(saved);
  out.peak_bytes = saved + mask + dsa_buffer + deferred + std::max(loss, worst_transient * tokens);
  out.end_of_backward_bytes =
      (first_kept + worst_transient) * tokens + static_cast<double>(b.embedding_output);
  return out;
}

}  // namespace trainmem::detail
