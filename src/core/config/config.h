// Config schema v1 (DESIGN.md): the one format used by presets, share links, the CLI and export.
// Key names follow torchtitan's job config where one exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model.h"
#include "core/result.h"

namespace trainmem {

struct Presets;

enum class Mode { kTemplate, kDetailed };
enum class Framework { kTorchtitan, kTorchtitanNpu, kMegatron, kDeepspeed, kTorchtune };
enum class DType { kFloat32, kBFloat16, kFloat16, kInt8, kFp8 };
enum class AttentionImpl { kFlash, kSdpa, kEager, kFlex };
enum class AcMode { kNone, kSelective, kFull };
// What a job does with a multimodal model's vision tower (ModelArch::vision_params): not loaded
// (a text-only job: the language model alone), loaded frozen (weights, no gradient or optimizer
// state: LLaMA-Factory's freeze_vision_tower default), or trained with the model (torchtitan's
// qwen3_5 / kimi_k2_7 models).
enum class VisionTower { kNone, kFrozen, kTrained };
// How a LoRA job stores its frozen base linears (QLoRA): as the framework stores parameters, as
// bitsandbytes' LLM.int8 (Linear8bitLt), or 4-bit NF4 / FP4 in blocks of 64 with an fp32 scale
// each (Linear4bit), or with those scales quantized again (bnb_4bit_use_double_quant; torchao's
// NF4Tensor, which torchtune's QLoRA models use, always does).
enum class BaseQuantization { kNone, kInt8, kNf4, kNf4DoubleQuant };
enum class PpSchedule { k1F1B, kInterleaved1F1B, kGPipe, kZeroBubble };
// Optimizers by the names people write; optimizer_states.cpp has each one's state formula.
enum class OptimizerKind {
  kAdamW,
  kAdam,
  kSgd,
  kLion,
  kAdafactor,
  kAdamW8bit,       // bitsandbytes / torchao 8-bit blockwise states
  kPagedAdamW8bit,  // bitsandbytes, states in CUDA unified memory
  kPagedAdamW,      // bitsandbytes 32-bit paged AdamW
  kAdamW4bit,       // torchao 4-bit states
  kLion8bit,        // bitsandbytes
  kMuon,            // momentum for 2-D block weights, AdamW for the rest
  kShampoo,         // Distributed Shampoo (factor matrices per block + grafting)
  kSoap,            // Shampoo's eigenbasis + Adam (Vyas et al. 2024)
};
// torchtitan [parallelism] fsdp_reshard_after_forward (distributed/fsdp.py
// get_fsdp_reshard_after_forward_policy): "default" reshards unless pipeline parallel is on.
enum class ReshardPolicy { kDefault, kAlways, kNever };
// torchtitan's expert-parallel token dispatcher ([parallelism] expert_parallel_comm_backend,
// model_registry(..., moe_comm_backend=...); models/common/token_dispatcher.py): "standard"
// (all_to_all_single, what the activations count), DeepEP and HybridEP (their own buffers, not
// modelled) and MinimalAsyncEP (two symmetric-memory receive buffers outside the caching
// allocator, estimate.cpp EpDispatchBufferBytes).
enum class EpCommBackend { kStandard, kDeepEp, kHybridEp, kMinimalAsyncEp };
// How the optimizer's step runs over its tensors (torch.optim's `fused` / `foreach` flags;
// torchtitan [optimizer] implementation "fused" | "foreach" | "for-loop"). It decides the step's
// temporaries (estimate_params.cpp StepImplementationTemp): a fused kernel makes none, foreach
// Adam makes one state-sized tensor (torch/optim/adam.py _multi_tensor_adam, _foreach_sqrt of
// every exp_avg_sq at once), the for-loop path two of one tensor's size at a time.
enum class OptimizerImpl { kFused, kForeach, kForLoop };

std::int64_t DTypeBytes(DType t);  // fp32 4, bf16/fp16 2, int8/fp8 1

struct Device {
  std::string id;  // preset id, empty for a custom device
  std::string name;
  double memory_gib = 0;              // what the framework sees (torch.cuda.mem_get_info total)
  std::int64_t memory_bytes = 0;      // memory_gib × 2^30, rounded down
  std::int64_t devices_per_node = 8;  // for the layout search's cost proxy
};

struct Training {
  std::int64_t local_batch_size = 8;  // torchtitan [training] local_batch_size
  std::int64_t seq_len = 2048;        // torchtitan [training] seq_len
  DType mixed_precision_param = DType::kBFloat16;
  bool fp8 = false;  // float8 linears (torchao / TE)
  // torchtitan's NVFP4 converter (components/quantization/nvfp4.py NVFP4LinearConverter, TorchAO
  // nvfp4_training): the dense linears of decoder blocks 0 … n−1 run 4-bit GEMMs. 0 = none,
  // -1 = every block. Weights, gathers and optimizer states stay as without it; what changes is
  // what per-op selective AC keeps (estimate_activations.cpp BlockUnderPolicy).
  std::int64_t nvfp4_layers = 0;
  AttentionImpl attention = AttentionImpl::kFlash;
  std::optional<double> dropout;  // nullopt = framework default (Megatron 0.1, others 0)
  std::int64_t loss_chunks = 1;   // chunked cross-entropy
  bool mtp = false;               // train the model's MTP modules (DeepSeek); off by default
  // Megatron / MindSpeed-LLM build each microbatch's [mbs, 1, s, s] bool causal mask in the data
  // loader and copy it to the device unless --no-create-attention-mask-in-dataloader is given
  // (megatron/training/arguments.py; core/datasets/gpt_dataset.py). Other frameworks: no effect.
  bool create_attention_mask_in_dataloader = true;
  // Megatron-LM only (frameworks' other flags have no such knob; off elsewhere):
  // --moe-grouped-gemm: the experts run as Transformer Engine GroupedLinear, whose grouped GEMM
  // keeps one cuBLAS workspace per compute stream (estimate_params.cpp GemmWorkspaceBytes).
  bool moe_grouped_gemm = false;
  // --cross-entropy-loss-fusion with the native implementation (the default
  // --cross-entropy-fusion-impl): the loss's backward runs under torch.compile and holds one
  // more fp32 copy of the logits (estimate_activations.cpp).
  bool cross_entropy_fusion = false;
  // LoRA (Hu et al. 2021): rank-r adapters A (r × in) and B (out × r) on every 2-D weight of the
  // blocks, base weights frozen (no gradients, no optimizer state, no fp32 master). 0 = every
  // weight trains. Megatron/MindSpeed --lora-r, torchtitan LoRAConverter rank, torchtune
  // lora_rank (estimate_params.cpp LoraAdapterParams).
  std::int64_t lora_rank = 0;
  // DeepSeek-V3.2 sparse attention (model.index_n_heads > 0): true when the lightning indexer and
  // its KL loss run as fused kernels (MindSpeed-LLM --use-fused-lightning-indexer with
  // --use-sparse-flash-attn or --use-fused-lightning-indexer-loss), which never hold seq × seq
  // scores. false (the frameworks' default path) materialises the main attention's probabilities
  // and the indexer's scores per layer (estimate_activations.cpp DsaScoreBytes).
  bool dsa_fused_kernels = false;
  // Megatron-LM --defer-embedding-wgrad-compute (needs pipeline parallelism): the last stage
  // keeps each microbatch's output-layer input and logits gradient instead of computing the
  // weight gradient in the backward, and runs those GEMMs during the pipeline flush
  // (tensor_parallel/layers.py; schedules.py finish_embedding_wgrad_compute).
  // wgrad_deferral_limit: --wgrad-deferral-limit, how many microbatches are deferred at most;
  // 0 = every microbatch (Megatron's default). Other frameworks: no effect.
  bool defer_embedding_wgrad_compute = false;
  std::int64_t wgrad_deferral_limit = 0;
  // Megatron-LM --grad-reduce-in-bf16: the data-parallel gradient buffer (main_grad) is bf16
  // instead of fp32 (arguments.py turns accumulate_allreduce_grads_in_fp32 off;
  // distributed_data_parallel.py grad_dtype). Other frameworks: no effect.
  bool grad_reduce_in_bf16 = false;
  // torchtitan [training] dtype (config/configs.py): float32 keeps fp32 parameters, gradients and
  // optimizer states under bf16 mixed precision; bfloat16 is full bf16 training, "all
  // parameters, gradients, and optimizer states in bfloat16, without an extra copy of fp32
  // weights" (the trainer builds the model under set_default_dtype). Other frameworks: no effect.
  DType dtype = DType::kFloat32;
  // The vision tower's part in the job (VisionTower); no effect when the model counts none. Its
  // image-token activations are not modelled.
  VisionTower vision_tower = VisionTower::kNone;
  // QLoRA: the frozen base linears' storage (BaseQuantization; estimate_params.cpp
  // QuantizedBaseBytesPerParam). Needs lora_rank > 0.
  BaseQuantization base_quantization = BaseQuantization::kNone;
};

struct Compile {
  bool enable = false;
  bool model = true;  // components: "model"
  bool loss = true;   // components: "loss"
};

struct Parallelism {
  std::int64_t dp_replicate = 1;        // data_parallel_replicate_degree
  std::int64_t dp_shard = -1;           // data_parallel_shard_degree; -1 = ranks left over
  std::int64_t tp = 1;                  // tensor_parallel_degree
  std::int64_t pp = 1;                  // pipeline_parallel_degree
  std::int64_t cp = 1;                  // context_parallel_degree
  std::int64_t ep = 1;                  // expert_parallel_degree
  std::int64_t etp = 1;                 // expert_tensor_parallel_degree (see ValidateConfig)
  std::int64_t pp_microbatch_size = 1;  // pipeline_parallel_microbatch_size
  PpSchedule pp_schedule = PpSchedule::k1F1B;
  std::int64_t pp_layers_per_stage = 0;  // 0 = even split (interleaved: 2 virtual stages per rank)
  // Layers of each pipeline rank, first to last (Megatron/MindSpeed --num-layer-list, or
  // --decoder-first/last-pipeline-num-layers written out); empty = the even split.
  std::vector<std::int64_t> pp_layer_list;
  // Interleaved schedule: microbatches run per model chunk before the next chunk's turn,
  // Megatron's --microbatch-group-size-per-virtual-pipeline-stage; 0 = the pipeline degree
  // (Megatron's default). It sets the warmup (estimate_activations.cpp PipelineInFlight).
  std::int64_t vp_microbatch_group = 0;
  bool sequence_parallel = true;
  // Ulysses (all-to-all) degree inside context parallelism, MindSpeed's --ulysses-degree-in-cp:
  // 0 = the framework's own algorithm (Megatron / MindSpeed-LLM: ring; DeepSpeed,
  // torchtitan-npu: Ulysses; torchtitan: all-gather); 1 = ring only (megatron_cp_algo); cp =
  // Ulysses only (ulysses_cp_algo); in between = hybrid_cp_algo (Ulysses inside, ring across).
  // Read for Megatron / MindSpeed only.
  std::int64_t ulysses_degree_in_cp = 0;
  std::optional<int> zero_stage;  // DeepSpeed ZeRO stage / Megatron distributed optimizer (1)
  // Megatron --num-distributed-optimizer-instances: the data-parallel ranks form this many
  // copies of the distributed optimizer, each sharding the states over dp·cp / instances ranks
  // (and the experts' over expert-DP / instances; parallel_state.py intra_partial /
  // intra_expt_dp groups). 1 = one optimizer over the whole data-parallel group.
  std::int64_t dist_opt_instances = 1;
  // FSDP2 blocks free their gathered parameters after forward (torchtitan/torchtune).
  ReshardPolicy fsdp_reshard_after_forward =
      ReshardPolicy::kDefault;  // DeepSpeed ZeRO stage / Megatron distributed optimizer (1)
  EpCommBackend ep_comm_backend = EpCommBackend::kStandard;  // expert_parallel_comm_backend
};

struct ActivationCheckpoint {
  AcMode mode = AcMode::kSelective;
  // "op", or k = checkpoint every k-th block. "op" by default: torchtitan's SelectiveAC has been
  // per-op only since its 2026-03 policy refactor (distributed/activation_checkpoint.py); its
  // TOML job files (selective_ac_option default "2") are read with their own default
  // (import/torchtitan_sections.cpp).
  std::string selective_ac_option = "op";
  bool offload = false;  // saved activations offloaded to host memory
  // MindSpeed --swap-attention (Megatron family): each block's input norm, attention and
  // post-attention norm send what they save for backward to host memory and prefetch it back
  // (estimate_activations.cpp); the MLP's saved tensors stay on the device.
  bool swap_attention = false;
  // Megatron --recompute-modules with --recompute-granularity selective
  // (transformer_config.py recompute_modules): which parts of each layer are recomputed in
  // backward. Bits of RecomputeModule; 0 = Megatron's default, core attention only.
  std::uint32_t recompute_modules = 0;
  // Megatron --recompute-method block --recompute-num-layers N with full granularity
  // (transformer_block.py _checkpointed_forward): only the first N blocks of each pipeline stage
  // (of each virtual chunk) are recomputed; the others keep everything. 0 = every block.
  std::int64_t recompute_num_layers = 0;
};

// Megatron's --recompute-modules names (megatron/core/transformer/transformer_config.py).
enum RecomputeModule : std::uint32_t {
  kRecomputeCoreAttn = 1u << 0,       // core_attn: the softmax scores
  kRecomputeLayernorm = 1u << 1,      // layernorm: the two norms' outputs
  kRecomputeMlaUpProj = 1u << 2,      // mla_up_proj: MLA's q / k / v up-projections
  kRecomputeMlp = 1u << 3,            // mlp: a dense MLP
  kRecomputeMoeAct = 1u << 4,         // moe_act: the routed experts' activation function
  kRecomputeMoe = 1u << 5,            // moe: the whole MoE layer
  kRecomputeSharedExperts = 1u << 6,  // shared_experts
};
// The names in that order; RecomputeModuleBit returns 0 for an unknown name.
extern const char* const kRecomputeModuleNames[7];
std::uint32_t RecomputeModuleBit(std::string_view name);

struct Optimizer {
  OptimizerKind name = OptimizerKind::kAdamW;
  DType state_dtype = DType::kFloat32;
  double momentum = 0.9;      // SGD only; 0 = no momentum buffer
  bool first_moment = false;  // Adafactor: keep a first moment (HF Adafactor beta1 set)
  std::int64_t max_preconditioner_dim = 0;  // Shampoo / SOAP block size; 0 = 1024 / 10000
  bool swap_optimizer = false;              // torchtitan-npu / MindSpeed --swap-optimizer
  std::int64_t swap_optimizer_times = 16;
  bool early_step_in_backward = false;  // optimizer step fused into backward, per parameter
  bool offload = false;                 // optimizer states and step on the host (ZeRO-Offload)
  // MindSpeed --reuse-fp32-param (Megatron, bf16, distributed optimizer): the fp32 master shard
  // lives in the bf16 parameter buffer plus a bf16 remainder (estimate_params.cpp).
  bool reuse_fp32_param = false;
  OptimizerImpl implementation = OptimizerImpl::kFused;
};

struct Overhead {
  double temporary_fraction = 0.10;  // seed ⑤: 5–15% of the rest
  double budget_fraction = 0.95;     // seed budget check: usable = device × 0.95
};

struct Config {
  int version = 1;
  Mode mode = Mode::kDetailed;
  Framework framework = Framework::kTorchtitan;
  std::string model_id;    // preset id; empty when the model is given inline
  std::string model_name;  // display name
  ModelArch model;
  std::int64_t nominal_params = 0;         // the size in the model's name (8B), template mode
  std::int64_t nominal_expert_params = 0;  // template split for MoE (seed: 657B of 671B)
  Device device;
  std::int64_t world_size = 1;
  Training training;
  Compile compile;
  Parallelism parallelism;
  ActivationCheckpoint activation_checkpoint;
  Optimizer optimizer;
  Overhead overhead;
};

// The degrees after resolving -1 (DESIGN.md "layout" object).
struct Layout {
  std::int64_t dp_replicate = 1, dp_shard = 1, tp = 1, pp = 1, cp = 1, ep = 1, etp = 1;
};

// Parses a config (JSON text or object), resolves the model and device against presets,
// fills defaults and validates. Every error names the key path and the reason.
Result<Config> ParseConfig(std::string_view json_text, const Presets& presets);
Result<Config> ConfigFromJson(const nlohmann::json& j, const Presets& presets);

// Validation on an already-built Config (degrees, divisibility, ranges). Empty = valid.
std::vector<Error> ValidateConfig(const Config& config);
Result<Layout> ResolveLayout(const Config& config);

// The resolved config, every default filled in. The model is written as its preset id when it
// has one and is unchanged, else inline with HF field names; so is the device.
nlohmann::json ConfigToJson(const Config& config);

// The schema defaults, as JSON (what share links diff against).
nlohmann::json DefaultConfigJson();

// Sets one dotted key ("parallelism.tensor_parallel_degree", or a short alias such as "tp") from
// text as a user typed it; the value is read as JSON when it parses, else as a string.
// Returns the new config, or errors naming the key. The input config is not modified.
Result<Config> ApplySetting(const Config& config, std::string_view key, std::string_view value,
                            const Presets& presets);

// The model and device a config gets when it names none (share links diff against these).
inline constexpr const char* kDefaultModelId = "llama3-8b";
inline constexpr const char* kDefaultDeviceId = "h100-80gb";

// Input caps checked by ValidateConfig. They are far above any real job and keep every product
// the estimator forms (tokens × hidden × bytes × layers) inside int64.
inline constexpr std::int64_t kMaxWorldSize = 1 << 20;  // 1,048,576 devices
inline constexpr std::int64_t kMaxLocalBatchSize = 1000000;
inline constexpr std::int64_t kMaxSeqLen = 100000000;
inline constexpr std::int64_t kMaxLoraRank = 65536;
inline constexpr double kMaxDeviceMemoryGib = 1e5;
// local_batch_size × seq_len × hidden_size, and × vocab_size (the logits), at most 2^47.
inline constexpr std::int64_t kMaxTokenElements = std::int64_t{1} << 47;

// Short names for common keys, shared by ApplySetting (`--set tp=8`) and share links (`&tp=8`).
struct SettingAlias {
  const char* alias;
  const char* path;  // dotted key path in the config JSON
};
const std::vector<SettingAlias>& SettingAliases();
// The dotted path for an alias; any other key is returned unchanged.
std::string ResolveSettingKey(std::string_view key);
// The alias for a dotted path, or the path itself when it has none.
std::string ShortSettingKey(std::string_view path);

// Several settings applied together, then validated once: the order does not matter
// (`--set tp=8 --set world_size=8` works although tp=8 alone is invalid for world_size 1).
Result<Config> ApplySettings(const Config& config,
                             const std::vector<std::pair<std::string, std::string>>& settings,
                             const Presets& presets);

// torchtitan's pipeline split (torchtitan/distributed/pipeline_parallel.py
// _get_pipeline_metadata and _generate_llm_fqn_per_model_part; frameworks.cpp). The embedding
// and the norm + output each weigh one layer (pipeline_parallel_first/last_stage_less_layers,
// default 1): stage 0 and the last stage hold one transformer layer fewer. stage_layers is each
// virtual stage's transformer layers, rank_layers each rank's (looped schedules: stage s on rank
// s mod pp; ZBVZeroBubble: the V, rank r holding stages r and 2·pp − 1 − r); error is
// torchtitan's refusal, empty when the split is valid.
struct PipelineSplit {
  std::vector<std::int64_t> stage_layers;
  std::vector<std::int64_t> rank_layers;
  std::string error;
};
PipelineSplit TorchtitanPipelineSplit(std::int64_t layers, std::int64_t pp, PpSchedule schedule,
                                      std::int64_t layers_per_stage);

// Which framework can keep the optimizer states off the device, and how (frameworks.cpp cites
// each): swap_optimizer (torchtitan-npu, Megatron via MindSpeed) or optimizer offload
// (DeepSpeed, Megatron-Core, torchtune). torchtitan has neither.
struct OptimizerOffDeviceOptions {
  const char* swap_optimizer = nullptr;  // the framework's own name for it; nullptr: none
  const char* offload = nullptr;         // the framework's own name for it; nullptr: none
};
OptimizerOffDeviceOptions FrameworkOptimizerOptions(Framework f);
bool FrameworkHasSwapOptimizer(Framework f);
// Whether the sequence is split over the tensor-parallel ranks between their regions: Megatron's
// --sequence-parallel flag; torchtitan's TP plan always shards norms and dropout over the
// sequence (SequenceParallel); DeepSpeed's AutoTP has none (frameworks.cpp).
bool SequenceParallelOn(const Config& c, std::int64_t tp);
// Sequences in one forward/backward pass on a rank: the pipeline's microbatch
// (parallelism.pipeline_parallel_microbatch_size) when the job pipelines (pp > 1), else the whole
// local batch. `pp` is the resolved degree (Layout::pp), or the config's where none is resolved.
std::int64_t SequencesPerMicrobatch(const Config& c, std::int64_t pp);
// Whether the framework trains LoRA over a quantized base (QLoRA, training.base_quantization):
// the Hugging Face Trainer (framework deepspeed) with bitsandbytes, torchtune with torchao NF4.
bool FrameworkHasQuantizedBase(Framework f);
// torchtitan or torchtitan-npu: the frameworks that read torchtitan's own keys.
bool IsTorchtitanFramework(Framework f);
// Whether `text` contains `lower_needle` (lower-case ASCII), ignoring case; no allocation.
bool ContainsIgnoringCase(const std::string& text, const char* lower_needle);
// An Ascend NPU device (its preset id or name says "ascend" or "910"): Megatron on it is
// MindSpeed-LLM, whose kernels (torch_npu) save different tensors than CUDA's and whose options
// (swap_optimizer, swap_attention, reuse_fp32_param) Megatron-LM lacks.
bool DeviceIsAscend(const Device& device);
// Megatron on Ascend: MindSpeed-LLM, the one with swap_optimizer, swap_attention and
// reuse_fp32_param (Megatron-LM on a GPU has none of them).
bool IsMindSpeed(Framework f, const Device& device);
// Where training.dtype bfloat16 (full bf16 training, no fp32 master) applies: torchtitan's
// [training] dtype, and the Hugging Face Trainer (framework deepspeed) without DeepSpeed on a
// model loaded in bf16 and trained as loaded (ms-swift's full fine-tuning, DDP or FSDP2).
bool FrameworkHasFullBf16(Framework f);
// Full bf16 training (training.dtype bfloat16 where it applies): the optimizer states are created
// like the bf16 parameters (zeros_like), whatever optimizer.state_dtype says, 8-bit states aside.
bool FullBf16States(const Config& c);
bool FrameworkHasOptimizerOffload(Framework f);
// torch.optim's Adam or AdamW: the optimizers whose step temporaries optimizer.implementation
// decides (estimate_params.cpp StepImplementationTemp).
bool IsTorchAdam(OptimizerKind o);
// optimizer.implementation changes the estimate: torch.optim's Adam/AdamW on a framework that
// steps with torch.optim (Megatron's Adam is its own fused kernel).
bool StepKernelApplies(const Config& c);
// "optimizer.swap_optimizer" where the framework has it, else "optimizer.offload" where it has
// that, else nullptr: the one move the advice and the layout search make. Megatron on a device
// that is not Ascend is Megatron-LM, which has no swap_optimizer (MindSpeed's): its move is
// --optimizer-cpu-offload.
const char* OptimizerOffDeviceKey(Framework f, const Device& device);
// Makes that move on `o`: returns the key it set, or nullptr when the framework has neither
// option or the states are off the device already.
const char* MoveOptimizerOffDevice(Optimizer& o, Framework f, const Device& device);
// Where the optimizer states live: an option the framework lacks has no effect (the estimate
// warns), and offload wins over swap_optimizer when both are set.
enum class OptimizerPlacement { kDevice, kSwapped, kOffloaded };
OptimizerPlacement EffectiveOptimizerPlacement(const Config& c);

// Names for enums, as written in JSON.
const char* ModeName(Mode m);
const char* FrameworkName(Framework f);
const char* DTypeName(DType t);
const char* AttentionName(AttentionImpl a);
const char* AcModeName(AcMode m);
const char* PpScheduleName(PpSchedule s);
const char* OptimizerName(OptimizerKind o);
const char* ReshardPolicyName(ReshardPolicy r);
const char* EpCommBackendName(EpCommBackend b);
const char* OptimizerImplName(OptimizerImpl i);
const char* VisionTowerName(VisionTower v);
const char* BaseQuantizationName(BaseQuantization q);

}  // namespace trainmem
