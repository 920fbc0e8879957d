#include "app/words/i18n.h"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/link/share_link.h"

namespace app {
namespace {

#define TRAINMEM_STR(id, english) english,
constexpr const char* kEnglish[] = {
#include "app/words/i18n_table.h"
};
#undef TRAINMEM_STR
static_assert(sizeof(kEnglish) / sizeof(kEnglish[0]) == static_cast<int>(Str::kCount),
              "i18n_table.h and the Str enum must list the same strings");

#define TRAINMEM_ZH(id, text) {Str::id, text},
constexpr std::pair<Str, const char*> kChinese[] = {
#include "app/words/i18n_zh.h"
};
#undef TRAINMEM_ZH

// Chinese by id, built once; nullptr where there is no translation (English is used).
const std::array<const char*, static_cast<int>(Str::kCount)>& ChineseById() {
  static const auto table = [] {
    std::array<const char*, static_cast<int>(Str::kCount)> t{};
    for (const auto& [id, text] : kChinese) t[static_cast<int>(id)] = text;
    return t;
  }();
  return table;
}

// The core's messages (validation errors, estimate warnings) are English sentences built from
// templates; the page translates them by template. `{}` stands for an argument (a number, a
// name) and is carried over in order. A message no template matches is shown as the core
// wrote it.
struct CoreMessage {
  const char* english;
  const char* chinese;
};
constexpr CoreMessage kCoreMessages[] = {
    {"must be at least {}, got {}", "至少为 {}，当前为 {}"},
    {"LoRA rank {}: {} adapter parameters train (every 2-D weight of the blocks); the base "
     "weights are frozen, without gradients, optimizer states or fp32 master",
     "LoRA 秩 {}：训练 {} 个适配器参数（各层的全部二维权重）；基座权重冻结，没有梯度、优化器状态和 "
     "fp32 主副本"},
    {"training.lora_rank is applied in detailed mode only: the template's formulas train every "
     "weight",
     "training.lora_rank 仅在详细模式下生效：模板模式的公式按全部权重参与训练计算"},
    {"training.dtype has no effect here: it is torchtitan's full-bf16 switch; this "
     "framework's own precision options decide its master weights",
     "training.dtype 在此无效：它是 torchtitan 的全 bf16 训练开关；主权重精度由本框架自己的精度选项"
     "决定"},
    {"training.dtype is applied in detailed mode only: the template's formulas keep fp32 masters",
     "training.dtype 仅在详细模式下生效：模板模式的公式按 fp32 主权重计算"},
    {"training dtype {} is not one torchtitan trains in: float32 (bf16 mixed precision, fp32 "
     "masters) or bfloat16",
     "训练精度 {} 不是 torchtitan 支持的取值：float32（bf16 混合精度，fp32 主权重）或 bfloat16"},
    {"optimizer.reuse_fp32_param has no effect here: MindSpeed's --reuse-fp32-param needs a "
     "Megatron-based job with bfloat16 parameters and the distributed optimizer (zero_stage 1)",
     "optimizer.reuse_fp32_param 在此无效：MindSpeed 的 --reuse-fp32-param 需要基于 Megatron 的"
     "任务、bfloat16 参数和分布式优化器（zero_stage 1）"},
    {"LoRA on the routed experts is not counted: {} more adapter parameters at rank {} if the "
     "targets wrap every expert's projections (lora_target all / all-linear with transformers "
     "4.x, where experts are separate linears; each trains with about 16 bytes of weights, "
     "gradients and AdamW states before sharding)",
     "路由专家上的 LoRA 未计入：还多 {} 个适配器参数（秩 {}），若目标模块包住每个专家的投影"
     "（transformers 4.x 中专家是独立线性层时的 lora_target all / all-linear；每个参数在切分前约有 "
     "16 字节的权重、梯度和 AdamW 状态）"},
    {"optimizer.implementation {} has no effect with megatron: its Adam is a fused kernel",
     "optimizer.implementation {} 对 megatron 无效：它的 Adam 是融合内核"},
    {"optimizer.implementation {} is counted for Adam and AdamW only; {}'s step temporaries are "
     "not counted",
     "optimizer.implementation {} 只对 Adam 和 AdamW 计入；{} 更新时的临时张量未计入"},
    {"activation_checkpoint.swap_attention has no effect here: MindSpeed's --swap-attention "
     "needs a Megatron-based job",
     "activation_checkpoint.swap_attention 在此无效：MindSpeed 的 --swap-attention 需要基于 "
     "Megatron 的任务"},
    // Import: the kinds of file (core/import/detect.cpp InputKindName).
    {"trainmem config", "trainmem 配置"},
    {"Hugging Face config.json", "Hugging Face config.json（模型）"},
    {"torchtitan TOML", "torchtitan TOML 任务文件"},
    {"torchtitan Python config registry", "torchtitan Python 配置注册表"},
    {"torchtitan resolved config (JSON)", "torchtitan 展开后的配置（JSON）"},
    {"launch script (Megatron, MindSpeed, DeepSpeed, Trainer, ms-swift)",
     "启动脚本（Megatron、MindSpeed、DeepSpeed、Trainer、ms-swift）"},
    {"DeepSpeed config (JSON)", "DeepSpeed 配置（JSON）"},
    {"MindSpeed-LLM FSDP2 YAML", "MindSpeed-LLM FSDP2 YAML 任务文件"},
    {"torchtune recipe config (YAML)", "torchtune 训练配方配置（YAML）"},
    {"Hugging Face Trainer YAML", "Hugging Face Trainer 参数 YAML"},
    {"Hugging Face Trainer arguments (JSON)", "Hugging Face Trainer 参数（JSON）"},
    {"must be at most {}, got {}", "至多为 {}，当前为 {}"},
    {"must be in {}, got {}", "须在 {} 范围内，当前为 {}"},
    {"world_size {} is not divisible by tp·pp·cp·dp_replicate = {}",
     "卡数 {} 不能被 tp·pp·cp·dp_replicate = {} 整除"},
    {"dp_replicate·dp_shard·cp·tp·pp = {} = {}, but world_size is {}",
     "dp_replicate·dp_shard·cp·tp·pp = {} = {}，但卡数为 {}"},
    {"tensor_parallel_degree {} exceeds the model's {} attention heads",
     "张量并行度 {} 超过模型的 {} 个注意力头"},
    {"the model's {} attention heads are not divisible by tensor_parallel_degree {}",
     "模型的 {} 个注意力头不能被张量并行度 {} 整除"},
    {"the model's {} key/value heads are not divisible by tensor_parallel_degree {}",
     "模型的 {} 个 KV 头不能被张量并行度 {} 整除"},
    {"expert_parallel_degree {} needs a mixture-of-experts model; this model is dense",
     "专家并行度 {} 需要 MoE 模型；此模型是 Dense 模型"},
    {"expert_tensor_parallel_degree {} needs a mixture-of-experts model; this model is dense",
     "专家张量并行度 {} 需要 MoE 模型；此模型是 Dense 模型"},
    {"the model's {} routed experts are not divisible by expert_parallel_degree {}",
     "模型的 {} 个路由专家不能被专家并行度 {} 整除"},
    {"must be 1 or tensor_parallel_degree ({}), got {}", "须为 1 或张量并行度（{}），当前为 {}"},
    {"expert_parallel_degree {} must divide {}", "专家并行度 {} 须整除 {}"},
    {"seq_len {} is not divisible by 2·context_parallel_degree = {}",
     "序列长度 {} 不能被 2·上下文并行度 = {} 整除"},
    {"seq_len {} is not divisible by context_parallel_degree = {}",
     "序列长度 {} 不能被上下文并行度 = {} 整除"},
    {"seq_len {} is not divisible by tensor_parallel_degree {} (sequence parallel splits the "
     "sequence)",
     "序列长度 {} 不能被张量并行度 {} 整除（序列并行会切分序列）"},
    {"local_batch_size × seq_len × {} is beyond what trainmem models (2^47 elements)",
     "batch × 序列长度 × {} 超出 trainmem 的建模范围（2^47 个元素）"},
    {"local_batch_size {} is not divisible by pipeline_parallel_microbatch_size {}",
     "单卡 batch {} 不能被流水线微批大小 {} 整除"},
    {"{} layers at {} per stage make {} stages, not a multiple of pipeline_parallel_degree {}",
     "{} 层按每阶段 {} 层分为 {} 个阶段，不是流水线并行度 {} 的倍数"},
    {"the model's {} layers cannot fill {} pipeline stages (pipeline_parallel_degree {})",
     "模型的 {} 层不够填满 {} 个流水线阶段（流水线并行度 {}）"},
    {"expected \"op\" or a positive integer k, got {}", "应为 \"op\" 或正整数 k，当前为 {}"},
    {"no model architecture: give a preset id or HF config.json fields",
     "没有模型结构：请给出预置模型 id 或 HF config.json 字段"},
    {"eager attention keeps seq_len × seq_len scores per head for backward",
     "eager 注意力为反向保存每个头的 seq_len × seq_len 分数"},
    {"optimizer states on the host: each rank needs {} of pinned host memory",
     "优化器状态在主机上：每个 rank 需要 {} 锁页主机内存"},
    {"NCCL/HCCL communication buffers and the runtime context live outside the caching "
     "allocator; the budget margin covers them",
     "NCCL/HCCL 通信缓冲和运行时上下文不在缓存分配器内；由预算余量覆盖"},
    // model_parse*.cpp: what a config.json was read as.
    {"model_type {} is not one trainmem knows; read as a Llama-style decoder: RMSNorm, gated "
     "SiLU MLP, no biases unless attention_bias / mlp_bias say so, untied unless "
     "tie_word_embeddings; every field trainmem knows honoured; found: {}",
     "model_type {} 不是 trainmem 认识的类型；按 Llama 式解码器读取：RMSNorm、门控 SiLU MLP，"
     "除非 attention_bias / mlp_bias 指明否则无偏置，除非 tie_word_embeddings 否则词表与输出头"
     "不共享；trainmem 认识的字段都已采用；识别到：{}"},
    {"model_type {} is not one trainmem knows; read with the defaults of {} (from "
     "architectures: {}), every field trainmem knows honoured",
     "model_type {} 不是 trainmem 认识的类型；按 {} 的默认值读取（来自 architectures：{}），"
     "trainmem 认识的字段都已采用"},
    {"omni config: the thinker's language model is counted; the talker, the audio and vision "
     "towers and the speech decoder are not",
     "全模态配置：只计入 thinker 的语言模型；talker、音频与视觉编码器以及语音解码器不计入"},
    {"{} leaves its shape to {}'s defaults, as transformers does: {}",
     "{} 没有写出模型结构，按 transformers 的做法取 {} 的默认值：{}"},
    {"multimodal config: the checkpoint also holds the {} vision tower and its projector ({} "
     "parameters, counted from its config); training.vision_tower says whether the job loads it "
     "frozen or trains it (default: not loaded, the language model alone)",
     "多模态配置：检查点还包含 {} 视觉塔及其投影层（{} 个参数，按其配置计算）；"
     "training.vision_tower 决定任务冻结加载还是训练它（默认不加载，只有语言模型）"},
    {"training.vision_tower is {}, but the model counts no vision tower: nothing is added",
     "training.vision_tower 为 {}，但模型没有可计数的视觉塔：不增加任何内容"},
    {"the vision tower is loaded frozen: its weights are in the estimate, with no gradients or "
     "optimizer states; its image-token activations are not modelled",
     "视觉塔以冻结方式加载：其权重计入估算，没有梯度和优化器状态；图像 token 的激活不建模"},
    {"the vision tower trains with the model: its weights, gradients and optimizer states are in "
     "the estimate; its image-token activations are not modelled",
     "视觉塔与模型一起训练：其权重、梯度和优化器状态计入估算；图像 token 的激活不建模"},
    {"{} has state-space (Mamba) layers that trainmem cannot place from this config ({}); "
     "counted as attention blocks the total would be wrong",
     "{} 含有 trainmem "
     "无法从该配置确定位置的状态空间（Mamba）层（{}）；若按注意力块计数，总数会出错"},
    {"the tower count includes the audio tower (a conformer) and its embedder, {} parameters; "
     "training.vision_tower applies to both",
     "塔的计数包含音频塔（conformer）及其嵌入层，{} 个参数；training.vision_tower 同时作用于两者"},
    {"the checkpoint also stores k_proj, v_proj and k_norm for the last {} (KV-shared) layers, "
     "which the model does not build: counted in the stored total, not trained",
     "检查点还为最后 {} 个（KV 共享）层存储了 k_proj、v_proj 和 "
     "k_norm，模型并不构建它们：计入存储总数，不参与训练"},
    {"seq_len {} is not a multiple of tensor_parallel_degree {}: sequence parallelism splits the "
     "sequence into equal parts, so the framework must pad each batch (Megatron's RL sequence "
     "packing does); the estimate takes the length as given",
     "seq_len {} 不是张量并行度 {} 的倍数：序列并行把序列等分，框架必须对每个 batch 做填充"
     "（Megatron 的 RL 序列打包会这样做）；估算按给定长度计算"},
    {"training.base_quantization {} has no effect without training.lora_rank: a quantized base "
     "trains only through its adapters",
     "training.base_quantization {} 在没有 training.lora_rank "
     "时不起作用：量化的基座只通过适配器训练"},
    {"training.base_quantization {} has no effect with {} (QLoRA runs on the Hugging Face "
     "Trainer, framework deepspeed, and torchtune)",
     "training.base_quantization {} 对 {} 不起作用（QLoRA 运行在 Hugging Face Trainer（框架 "
     "deepspeed）和 torchtune 上）"},
    {"QLoRA: the embedding, head and norms are counted in the compute dtype; peft's "
     "prepare_model_for_kbit_training (TRL, axolotl, FastChat) casts them to fp32, 2 bytes a "
     "parameter more (LLaMA-Factory does not)",
     "QLoRA：词表、输出头和归一化按计算精度计入；peft 的 prepare_model_for_kbit_training（TRL、"
     "axolotl、FastChat）会把它们转为 fp32，每个参数多 2 字节（LLaMA-Factory 不会）"},
    {"int8 base weights with ZeRO-3 / FSDP: only 4-bit bitsandbytes weights can be sharded "
     "(LLaMA-Factory refuses this combination); the estimate shards them anyway",
     "int8 基座权重与 ZeRO-3 / FSDP：只有 4 位 bitsandbytes 权重可以切分（LLaMA-Factory "
     "拒绝这种组合）；"
     "估算仍按切分计算"},
    {"{} is an encoder-decoder model; trainmem estimates decoder-only language models (and "
     "multimodal ones built on them)",
     "{} 是编码器-解码器模型；trainmem 估算的是仅解码器的语言模型（以及基于它们的多模态模型）"},
    {"Llama 3.2 Vision: the cross-attention layers are counted as the self-attention layers they "
     "replace; their q/k norms and gates and the table's 8 extra rows (tens of thousands of "
     "parameters) are not",
     "Llama 3.2 Vision：交叉注意力层按其所替换的自注意力层计数；其 q/k 归一化、门控以及词表的 8 "
     "个额外行（数万个参数）不计入"},
    {"MiniCPM-V {}: its language model is read as {}", "MiniCPM-V {}：其语言模型按 {} 读取"},
    {"multimodal config: the language model is counted; the vision tower is not ({}), so the "
     "published total is larger",
     "多模态配置：只计入语言模型；视觉塔不计入（{}），因此公布的总参数量更大"},
    {"multimodal config: the language model is counted; this vision tower (vision_config) and "
     "its projector are not, so the published total is larger",
     "多模态配置：只计入语言模型；这种视觉塔（vision_config）及其投影层不计入，"
     "因此公布的总参数量更大"},
    {"all {} layers are Mamba-2 state-space mixers: no KV cache and no seq × seq scores; they "
     "save what mamba_ssm's fused scan keeps",
     "全部 {} 层是 Mamba-2 状态空间混合器：没有 KV cache，也没有 seq × seq 分数；"
     "保存 mamba_ssm 融合扫描所保留的张量"},
    {"{} of {} layers are Mamba-2 state-space mixers: no KV cache and no seq × seq scores; they "
     "save what mamba_ssm's fused scan keeps (in_proj output, scan output, norm statistics), "
     "the conv output and the chunk states are recomputed in backward",
     "{} / {} 层是 Mamba-2 状态空间混合器：没有 KV cache，也没有 seq × seq 分数；保存 "
     "mamba_ssm 融合扫描所保留的张量（in_proj 输出、扫描输出、归一化统计量），卷积输出和分块"
     "状态在反向时重算"},
    {"all {} layers are Mamba (selective-scan) mixers: no KV cache and no seq × seq scores; they "
     "save what mamba_ssm's fused mamba_inner_fn keeps (in_proj output, x_proj output, B, C, the "
     "scan output), the conv output and dt are recomputed in backward",
     "全部 {} 层是 Mamba（选择性扫描）混合器：没有 KV cache，也没有 seq × seq 分数；保存 "
     "mamba_ssm 融合的 mamba_inner_fn 所保留的张量（in_proj 输出、x_proj 输出、B、C、扫描"
     "输出），卷积输出和 dt 在反向时重算"},
    {"{} of {} layers are Mamba (selective-scan) mixers: no KV cache and no seq × seq scores; "
     "they save what mamba_ssm's fused mamba_inner_fn keeps (in_proj output, x_proj output, B, "
     "C, the scan output), the conv output and dt are recomputed in backward",
     "{} / {} 层是 Mamba（选择性扫描）混合器：没有 KV cache，也没有 seq × seq 分数；保存 "
     "mamba_ssm 融合的 mamba_inner_fn 所保留的张量（in_proj 输出、x_proj 输出、B、C、扫描"
     "输出），卷积输出和 dt 在反向时重算"},
    {"{} of {} blocks run attention and a Mamba-2 mixer side by side: both are counted and both "
     "save their activations; the mixer keeps no seq × seq scores",
     "{} / {} 个 block 中注意力与 Mamba-2 混合器并行：两者的参数都计入，激活都保存；"
     "混合器不保存 seq × seq 分数"},
    {"{} of {} layers are RG-LRU recurrent blocks: no KV cache and no seq × seq scores",
     "{} / {} 层是 RG-LRU 循环块：没有 KV cache，也没有 seq × seq 分数"},
    {"{} of {} blocks are gated short convolutions (kernel {}): no KV cache and no seq × seq "
     "scores",
     "{} / {} 个 block 是门控短卷积（卷积核 {}）：没有 KV cache，也没有 seq × seq 分数"},
    {"{} of {} layers use {} linear attention: no KV cache and no seq × seq scores; their saved "
     "activations follow {}, the dk × dv state per head is recomputed in backward",
     "{} / {} 层使用 {} 线性注意力：没有 KV cache，也没有 seq × seq 分数；保存的激活按 {} "
     "计算，每个头的 dk × dv 状态在反向时重算"},
    {"{} of {} layers use Kimi Delta Attention (linear): no KV cache and no seq × seq scores; "
     "their saved activations follow fla's chunked kernel (64-token chunks), the d × d state per "
     "head is recomputed in backward",
     "{} / {} 层使用 Kimi Delta Attention（线性注意力）：没有 KV cache，也没有 seq × seq 分数；"
     "保存的激活按 fla 的分块核（64 token 一块）计算，每个头的 d × d 状态在反向时重算"},
    {"LongCat-Flash: each of the {} layers is counted as two attention + MLP blocks with the MoE "
     "beside the first (pipeline stages split these blocks); the router's zero-computation "
     "experts hold router rows only",
     "LongCat-Flash：{} 层中每层按两个注意力 + MLP block 计算，MoE 与第一个并行（流水线按这些 "
     "block 切分阶段）；路由器的零计算专家只占路由器的行"},
    {"config.json fields trainmem did not read: {}; if they change the model's shape, its count "
     "is off",
     "config.json 中 trainmem 未读取的字段：{}；如果它们改变模型结构，参数量就不准"},
    {"{} Mamba-2 blocks, {} of which also run one of {} shared attention + MLP blocks (their "
     "weights counted once each, their activations in every hybrid layer)",
     "{} 个 Mamba-2 block，其中 {} 个还运行 {} 个共享注意力 + MLP block 之一（共享权重各计一次，"
     "激活在每个混合层都计入）"},
    {"heterogeneous blocks (block_configs): {} of {} layers without attention, {} without an "
     "MLP; each layer counted with its own KV heads and MLP width",
     "异构 block（block_configs）：{} / {} 层没有注意力，{} 层没有 MLP；每层按各自的 KV 头数和 "
     "MLP 宽度计算"},
    // frameworks.cpp: an optimizer option the framework does not have.
    {"optimizer.swap_optimizer has no effect with {} (it has no swap_optimizer); "
     "optimizer.offload is its {}",
     "optimizer.swap_optimizer 对 {} 无效（它没有 swap_optimizer）；它的 optimizer.offload 即 {}"},
    {"optimizer.swap_optimizer has no effect with {} (it has no swap_optimizer)",
     "optimizer.swap_optimizer 对 {} 无效（它没有 swap_optimizer）"},
    {"optimizer.offload has no effect with {} (it has no optimizer offload); "
     "optimizer.swap_optimizer is its {}",
     "optimizer.offload 对 {} 无效（它没有优化器卸载）；它的 optimizer.swap_optimizer 即 {}"},
    {"optimizer.offload has no effect with {} (it has no optimizer offload)",
     "optimizer.offload 对 {} 无效（它没有优化器卸载）"},
    {"the model has MTP modules; they are not trained (training.mtp = false)",
     "模型有 MTP 模块；未训练它们（training.mtp = false）"},
    {"the whole-sequence loss holds {} GiB of fp32 logits here; torchtitan's current model "
     "configs chunk it (ChunkedLossWrapper, 8 chunks): set training.loss_chunks = 8 if your job "
     "does",
     "整段序列的损失在此保存 {} GiB 的 fp32 logits；torchtitan 当前的模型配置会分块计算"
     "（ChunkedLossWrapper，8 块）：若你的作业如此，请设 training.loss_chunks = 8"},
    {"fp8 is estimated like bf16: float8/MXFP8 linears cast their inputs inside the matmul and "
     "keep fp32 masters, bf16 gathers and bf16 activations between layers (torchtitan "
     "components/quantization); measured float8/MXFP8 peaks are within a few percent of bf16 "
     "(NVFP4 blocks are training.nvfp4_layers)",
     "fp8 按 bf16 估算：float8/MXFP8 线性层在矩阵乘内部转换输入，主权重仍为 "
     "fp32，聚合与层间激活仍为 "
     "bf16（torchtitan components/quantization）；实测 float8/MXFP8 峰值与 bf16 相差仅几个百分点"
     "（NVFP4 层见 training.nvfp4_layers）"},
    {"training.nvfp4_layers is torchtitan's NVFP4 converter; with {} those blocks are estimated "
     "as bf16",
     "training.nvfp4_layers 指 torchtitan 的 NVFP4 转换器；在 {} 下这些层按 bf16 估算"},
    {"NVFP4 blocks are estimated as bf16 without per-op selective AC: their linears then save FP4 "
     "copies of their inputs and weights in place of bf16 inputs, which is not subtracted (the "
     "estimate is high)",
     "没有逐算子选择性重计算时，NVFP4 层按 bf16 估算：其线性层改存输入与权重的 FP4 副本而非 "
     "bf16 输入，此处未扣除（估计偏高）"},
    {"expert parallelism is estimated with torchtitan's standard all-to-all token dispatcher; "
     "DeepEP/HybridEP dispatch keeps other buffers and is not modelled",
     "专家并行按 torchtitan 标准的 all-to-all token 分发器估算；DeepEP/HybridEP "
     "分发使用其他缓冲，未建模"},
    {"expert parallelism with full checkpointing: measured EP 8 runs held 5–10 GiB more per "
     "sample of 4–8k tokens than this estimate counts (routing imbalance and dispatch buffers); "
     "leave headroom that grows with the local batch",
     "专家并行配合全量重计算：实测 EP 8 运行每个 4–8k token 的样本比本估算多占 5–10 GiB"
     "（路由不均衡和分发缓冲）；请按本地 batch 大小相应预留余量"},
    {"{} layers do not divide into {} pipeline stages: Megatron stops at its check unless the "
     "first/last stage's layer count is given (--decoder-first-pipeline-num-layers / "
     "--decoder-last-pipeline-num-layers; MindSpeed: --num-layer-list), which "
     "parallelism.pp_layer_list states; estimated with the layers spread as evenly as they go",
     "{} 层无法均分到 {} "
     "个流水线阶段：除非给出首/末阶段的层数（--decoder-first-pipeline-num-layers / "
     "--decoder-last-pipeline-num-layers；MindSpeed：--num-layer-list，即 "
     "parallelism.pp_layer_list），Megatron 会在检查处报错；此处按尽量均匀的切分估算"},
    {"parallelism.expert_parallel_comm_backend {} is torchtitan's switch; {} is estimated with "
     "its own dispatcher",
     "parallelism.expert_parallel_comm_backend {} 是 torchtitan 的开关；{} 按其自身的分发器估算"},
    {"MinimalAsyncEP's two receive buffers (EP × tokens per rank × min(top-k, local experts) × "
     "dim) take {} of symmetric memory outside the caching allocator: not in the total "
     "(torchtitan's memory line does not show them either), taken from the usable memory",
     "MinimalAsyncEP 的两个接收缓冲（EP × 每卡 token 数 × min(top-k, 本卡专家数) × dim）在缓存"
     "分配器之外占用 {} 对称内存：不计入总量（torchtitan "
     "的内存日志同样不显示），已从可用显存中扣除"},
    {"the {} dispatcher needs expert_parallel_degree > 1 (torchtitan refuses it at EP 1); set "
     "ep, or the standard dispatcher",
     "{} 分发器需要 expert_parallel_degree > 1（EP 为 1 时 torchtitan 会拒绝）；请设置 ep，或改用"
     "标准分发器"},
    {"invalid config: {}", "配置无效：{}"},
    // Share links (share_link_decode.cpp): the key stays as the link writes it.
    {"is not a key of trainmem links ({})", "不是 trainmem 链接的键（{}）"},
    {"has no value (write {})", "没有值（应写作 {}）"},
    {"is not valid percent-encoding, and not a key of trainmem links",
     "不是有效的百分号编码，也不是 trainmem 链接的键"},
    {"\"{}\" has no key name (links write key=value)", "「{}」没有键名（链接写作 key=value）"},
    {"given twice ({}, then {}); the last, {}, is used",
     "出现了两次（{}，然后 {}）；使用最后一个值 {}"},
    // The import over the page's job (core/import/import_over_page.cpp).
    {"not stated in the files; the page's value is kept", "文件中未写明；沿用页面上的值"},
    {"{} was not applied, it does not fit the rest of the link: {}",
     "{} 未应用，与链接的其余部分冲突：{}"},
    {"unknown model preset {}", "未知的预置模型 {}"},
    {"unknown device preset {}", "未知的预置设备 {}"},
    {"a value for the custom model's Hugging Face config.json field {}",
     "自定义模型的 Hugging Face config.json 字段 {} 的取值"},
    {"unknown value {}; valid values: {}", "未知的取值 {}；可选值：{}"},
    {"must be 0, 1, 2 or 3 (or null), got {}", "须为 0、1、2 或 3（或 null），当前为 {}"},
    {"unknown value {}", "未知的取值 {}"},
    {"expected an integer, got {}", "应为整数，当前为 {}"},
    {"expected a number, got {}", "应为数字，当前为 {}"},
    {"expected a boolean, got {}", "应为布尔值，当前为 {}"},
    {"model=custom needs its fields in the link", "model=custom 需要在链接中给出模型字段"},
    {"device=custom needs its fields in the link", "device=custom 需要在链接中给出设备字段"},
    {"the link has more than {} keys; the rest are ignored", "链接的键超过 {} 个；其余的已忽略"},
    {"this link is version {}, this page reads v1; the keys it knows were read",
     "此链接版本为 {}，本页面读取 v1；已读取能识别的键"},
    {"the link does not start with v1 (its version); the keys it knows were read",
     "链接不以 v1（版本号）开头；已读取能识别的键"},
    // Measured in a run: where a measurement came from (measured_actions.cpp) and the formats
    // the readers name (core/compare).
    {"the link", "链接"},
    {"pasted text", "粘贴的文本"},
    {"share link", "分享链接"},
    {"out-of-memory", "显存不足报错"},
    // Measured in a run: the comparison's sentence (core/compare/compare.cpp).
    {"{} measured {} the estimate ({} measured, {} estimated): within 10%, the estimate matches "
     "this run.",
     "{}实测为估算的 {}（实测 {}，估算 {}）：相差在 10% 以内，估算与这次运行相符。"},
    {"{} measured {} the estimate ({} measured, {} estimated): part of the {} is the runtime "
     "context and communication buffers outside the allocator; a framework log line (max reserved) "
     "compares like with like.",
     "{}实测为估算的 {}（实测 {}，估算 {}）：这 {} "
     "中有一部分是缓存分配器之外的运行时上下文和通信缓冲区；框架日志里的 max reserved "
     "才是同口径的对比。"},
    {"{} measured {} the estimate ({} measured, {} estimated): the estimate misses {}. Is "
     "activation checkpointing on as configured? A torch.profiler memory timeline would show which "
     "component.",
     "{}实测为估算的 {}（实测 {}，估算 {}）：估算少算了 "
     "{}。激活重计算是否按配置开启？torch.profiler 显存时间线能显示是哪一部分。"},
    {"{} measured {} the estimate ({} measured, {} estimated): the estimate is {} too high. Does "
     "the run checkpoint, compile or shard more than the config says?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：估算偏高 "
     "{}。这次运行的重计算、编译或切分是否比配置写的更多？"},
    {"The estimate has no figure for this configuration to compare.",
     "估算中没有可与之对比的数值。"},
    {"The run logged no training step: after model init it held {} ({}), beside the estimate's "
     "{} of parameters; the training peak was not measured.",
     "这次运行没有记录训练步：模型初始化后占用 {}（{}），估算的参数为 {}；训练峰值没有测到。"},
    {"Every component is within 10% of the estimate; the largest gap is in {} ({} measured, {} "
     "estimated).",
     "各组成部分都与估算相差在 10% 以内；差距最大的是 {}（实测 {}，估算 {}）。"},
    {"{} measured {} the estimate ({} measured, {} estimated): are parameters sharded as "
     "configured (FSDP/ZeRO-3, TP, PP degrees) and kept in the configured precision?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：参数是否按配置切分（FSDP/ZeRO-3、TP、PP "
     "的并行度），并以配置的精度保存？"},
    {"{} measured {} the estimate ({} measured, {} estimated): does the run shard parameters more "
     "than the config says?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：这次运行对参数的切分是否比配置写的更多？"},
    {"{} measured {} the estimate ({} measured, {} estimated): are gradients kept in fp32 or "
     "unsharded longer than the config says?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：梯度是否以 fp32 "
     "保存，或未切分的时间比配置写的更长？"},
    {"{} measured {} the estimate ({} measured, {} estimated): are gradients sharded or freed "
     "earlier (ZeRO-2, FSDP reduce-scatter) than estimated?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：梯度是否比估算更早被切分或释放（ZeRO-2、FSDP "
     "reduce-scatter）？"},
    {"{} measured {} the estimate ({} measured, {} estimated): are optimizer states fp32 and "
     "unsharded (no ZeRO-1 / distributed optimizer)?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：优化器状态是否为 fp32 且未切分（没有 ZeRO-1 / "
     "分布式优化器）？"},
    {"{} measured {} the estimate ({} measured, {} estimated): are optimizer states sharded, "
     "offloaded or kept in lower precision?",
     "{}实测为估算的 {}（实测 {}，估算 "
     "{}）：优化器状态是否被切分、卸载到主机，或以更低精度保存？"},
    {"{} measured {} the estimate ({} measured, {} estimated): is activation checkpointing on, and "
     "are batch size and sequence length as configured?",
     "{}实测为估算的 {}（实测 {}，估算 {}）：激活重计算是否开启，batch "
     "大小和序列长度是否与配置一致？"},
    {"{} measured {} the estimate ({} measured, {} estimated): does the run checkpoint more, "
     "compile (fusing element-wise ops) or chunk the loss?",
     "{}实测为估算的 {}（实测 {}，估算 "
     "{}）：这次运行是否重计算得更多、做了编译（融合逐元素算子）或对 loss 分块？"},
    {"{} measured {} the estimate ({} measured, {} estimated): communication buffers, gathered "
     "layers or tensors the profiler could not categorise exceed the estimate's temporary "
     "allowance.",
     "{}实测为估算的 {}（实测 {}，估算 {}）：通信缓冲区、聚合后的层或 profiler "
     "无法归类的张量超出了估算给临时缓冲区留的量。"},
    {"{} measured {} the estimate ({} measured, {} estimated): fewer temporaries are alive at the "
     "peak than the estimate allows.",
     "{}实测为估算的 {}（实测 {}，估算 {}）：峰值时刻存活的临时张量比估算留的少。"},
    {"The run ran out of memory, as the estimate predicts ({} of {} usable). It needed at least {} "
     "allocated (what it held plus the request that failed). The advice shows what makes it fit.",
     "这次运行显存不足，与估算一致（{} / 可用 {}）。它至少需要已分配 "
     "{}（已占用的加上失败的那次申请）。调整建议给出了放得下的改法。"},
    {"The run ran out of memory, as the estimate predicts ({} of {} usable). The advice shows what "
     "makes it fit.",
     "这次运行显存不足，与估算一致（{} / 可用 {}）。调整建议给出了放得下的改法。"},
    {"The run ran out of memory where the estimate says it fits; the error gives no allocated "
     "figure to compare.",
     "这次运行显存不足，而估算认为放得下；报错里没有可对比的已分配数值。"},
    {"The run ran out of memory where the estimate says it fits: it needed at least {} allocated "
     "(what it held plus the request that failed), {} more than the estimate's peak allocated "
     "({}). Is activation checkpointing on as configured, and are the batch and sequence as the "
     "config says?",
     "这次运行显存不足，而估算认为放得下：它至少需要已分配 "
     "{}（已占用的加上失败的那次申请），比估算的峰值已分配多 {}（估算 "
     "{}）。激活重计算是否按配置开启，batch 和序列长度是否与配置一致？"},
    {"The run ran out of memory where the estimate says it fits; it needed at least {} allocated, "
     "which the estimate's peak allocated ({}) covers: memory outside the allocator (another "
     "process, communication buffers) or fragmentation took the rest of the device.",
     "这次运行显存不足，而估算认为放得下；它至少需要已分配 "
     "{}，估算的峰值已分配（{}"
     "）足以覆盖：设备上其余的显存被缓存分配器之外的占用（其他进程、通信缓冲区）或碎片占去了。"},
    {"The run ran out of memory where the estimate says it is close to the limit; the error gives "
     "no allocated figure to compare.",
     "这次运行显存不足，而估算认为接近上限；报错里没有可对比的已分配数值。"},
    {"The run ran out of memory where the estimate says it is close to the limit: it needed at "
     "least {} allocated (what it held plus the request that failed), {} more than the estimate's "
     "peak allocated ({}). Is activation checkpointing on as configured, and are the batch and "
     "sequence as the config says?",
     "这次运行显存不足，而估算认为接近上限：它至少需要已分配 "
     "{}（已占用的加上失败的那次申请），比估算的峰值已分配多 {}（估算 "
     "{}）。激活重计算是否按配置开启，batch 和序列长度是否与配置一致？"},
    {"The run ran out of memory where the estimate says it is close to the limit; it needed at "
     "least {} allocated, which the estimate's peak allocated ({}) covers: memory outside the "
     "allocator (another process, communication buffers) or fragmentation took the rest of the "
     "device.",
     "这次运行显存不足，而估算认为接近上限；它至少需要已分配 "
     "{}，估算的峰值已分配（{}"
     "）足以覆盖：设备上其余的显存被缓存分配器之外的占用（其他进程、通信缓冲区）或碎片占去了。"},
    // Measured in a run: the notes under the comparison (core/compare).
    // (The figures stand before a word: a "." after one would end it at its decimal point.)
    {"After model init, before training: {} ({}); the estimate has {} of parameters.",
     "模型初始化后、训练开始前：{}（{}）；估算中参数占 {}。"},
    {"Only the after-model-init figure was found (the run logged no step): it holds parameters "
     "and buffers, not the training peak.",
     "只找到模型初始化后的数值（这次运行没有记录训练步）：它只含参数和缓冲区，不是训练峰值。"},
    {"The memory timeline counts tensors the profiler recorded during the profiled steps; its "
     "peak is compared with the estimate's peak allocated. INPUT is counted with activations; "
     "TEMPORARY, AUTOGRAD_DETAIL and uncategorised bytes with temporary.",
     "显存时间线只统计 profiler 在被分析的几步中记录到的张量；其峰值与估算的峰值已分配对比。"
     "INPUT 计入激活，TEMPORARY、AUTOGRAD_DETAIL 和未归类的字节计入临时缓冲区。"},
    {"The raw timeline frees bytes it never recorded in some category (counted as zero).",
     "原始时间线在某些类别里释放了从未记录过的字节（按零计）。"},
    {"The recorded trace does not add up to the segments (it starts after allocations it does "
     "not show); only the snapshot's moment is used.",
     "记录的 trace 与内存段对不上（它开始于一些未记录的分配之后）；只采用快照那一刻的数值。"},
    {"The trace records an out-of-memory error.", "trace 中记录了一次显存不足报错。"},
    {"The snapshot has no recorded trace: its figures are the moment it was taken (the reserved "
     "figure is a lower bound on the run's peak unless it was taken at the peak, e.g. on an "
     "out-of-memory error).",
     "快照没有记录 trace：其数值是拍摄那一刻的（除非恰在峰值时拍摄，例如显存不足报错时，"
     "否则 reserved 数值只是运行峰值的下限）。"},
    {"The snapshot covers {} devices; device {} (the most reserved) is compared.",
     "快照包含 {} 个设备；对比的是 reserved 最多的设备 {}。"},
    // The import report: why a value is missing (core/import Builder::Missing), and what it lists
    // under problems. A reason joined from parts with "; " (a Megatron script missing its model
    // flags) is translated part by part (TrCore).
    {"recipe {} trains {}, which trainmem has no preset for: pick a preset or give its config.json",
     "配方 {} 训练的是 {}，trainmem 没有它的预设：请选一个预设，或提供它的 config.json"},
    {"the files do not state the precision (the recipe's mixed_precision): bf16_mixed, the "
     "recipes' default, is assumed",
     "文件中未写明精度（配方的 mixed_precision）：按配方的默认值 bf16_mixed 估算"},
    {"the files do not say whether the distributed optimizer is on "
     "(optimizer.use_distributed_optimizer): the recipes turn it on, assumed",
     "文件中未写明是否开启分布式优化器（optimizer.use_distributed_optimizer）：配方默认开启，按开启"
     "估算"},
    {"the config states no model (model.num_layers, model.hidden_size); pick a preset",
     "配置中没有模型（model.num_layers、model.hidden_size）；请选一个预设"},
    {"the override YAML states no model: it overrides a recipe's (its name suggests {}, not "
     "assumed); give the launch script that names it, or pick a preset",
     "这个覆盖用的 YAML 没有模型：它覆盖的是某个配方的模型（文件名提示是 {}，未采用）；请提供指定"
     "该配方的启动脚本，或选一个预设"},
    {"the override YAML states no model: it overrides a recipe's; give the launch script that "
     "names it, or pick a preset",
     "这个覆盖用的 YAML 没有模型：它覆盖的是某个配方的模型；请提供指定该配方的启动脚本，或选一个"
     "预设"},
    {"{} names no recipe trainmem can tell: its model and defaults are not applied; give the "
     "model in the overrides or pick a preset",
     "{} 没有指定 trainmem 能识别的配方：未套用其模型和默认值；请在覆盖项中给出模型，或选一个预设"},
    {"{} runs {}, which is not in trainmem's recipe table: its model and defaults are not "
     "applied; give the model in the overrides or pick a preset",
     "{} 运行 {}，它不在 trainmem 的配方表中：未套用其模型和默认值；请在覆盖项中给出模型，或选一个"
     "预设"},
    {"set by the performance harness's workload table (not read); give it",
     "由性能测试框架的负载表设定（未读取）；请填写"},
    {"train_micro_batch_size_per_gpu is \"auto\" (set by the HF Trainer from "
     "per_device_train_batch_size): give it",
     "train_micro_batch_size_per_gpu 为 \"auto\"（由 HF Trainer 按 per_device_train_batch_size "
     "设定）：请填写"},
    {"{} is \"auto\": give it", "{} 为 \"auto\"：请填写"},
    {"a DeepSpeed JSON names no model: give its config.json or pick a preset",
     "DeepSpeed JSON 不指定模型：请提供模型的 config.json，或选一个预设"},
    {"the model is the config.json in model_name_or_path ({}), which no preset is named after: "
     "give that config.json with the job",
     "模型是 model_name_or_path（{}）中的 config.json，没有与之同名的预设：请把这个 config.json "
     "与任务文件一起提供"},
    {"give the launch script, or parallel.fsdp_size (train_fsdp2.py requires it to equal the "
     "world size; its default, 1, runs on one device)",
     "请提供启动脚本或 parallel.fsdp_size（train_fsdp2.py 要求它等于总卡数；默认值 1 即只用一张"
     "卡）"},
    {"no {}: the trainer's default is {}", "没有 {}：训练器的默认值为 {}"},
    {"--deepspeed names no config file: give the DeepSpeed JSON",
     "--deepspeed 没有指定配置文件：请提供 DeepSpeed JSON"},
    {"the DeepSpeed config {} was not given and its name has no stage",
     "没有提供 DeepSpeed 配置 {}，其文件名也看不出 ZeRO 阶段"},
    {"no cutoff_len: LLaMA-Factory's default is 2048",
     "没有 cutoff_len：LLaMA-Factory 的默认值为 2048"},
    {"no --max_length: ms-swift keeps samples up to the model's whole context; give the longest "
     "sample your data holds",
     "没有 --max_length：ms-swift 保留的样本可长达模型的整个上下文；请填写数据中最长样本的长度"},
    {"the script's sequence length is not among its arguments (model_max_length, "
     "max_seq_length, cutoff_len, block_size, …)",
     "脚本参数中没有序列长度（model_max_length、max_seq_length、cutoff_len、block_size 等）"},
    {"{} without a rank: the script's own default applies (TRL's lora_r 16, Qwen's finetune.py "
     "64, peft's LoraConfig 8); give it",
     "{} 未给出秩：按脚本自己的默认值（TRL 的 lora_r 为 16，Qwen 的 finetune.py 为 64，peft 的 "
     "LoraConfig 为 8）；请填写"},
    {"the model is not named: give its config.json or pick a preset",
     "未指定模型：请提供它的 config.json，或选一个预设"},
    {"the model {} is no preset: give its config.json or pick one",
     "模型 {} 没有预设：请提供它的 config.json，或选一个预设"},
    {"the files do not name the accelerator; a comment names it",
     "文件中未写明加速卡；注释中写到了它"},
    {"a comment guesses at the accelerator, the files do not name it; pick it",
     "注释中猜测了加速卡，文件中未写明；请选择"},
    {"the files count devices in dies, as on an Atlas A3 (910C); pick it",
     "文件按 die 计数设备，如 Atlas A3（910C）；请选择"},
    {"the files do not name the accelerator; pick it", "文件中未写明加速卡；请选择"},
    {"the files do not state the number of devices (torchrun --nproc_per_node × --nnodes); the "
     "smallest number of devices the parallel degrees allow is assumed",
     "文件中未写明卡数（torchrun --nproc_per_node × --nnodes）；按并行度允许的最少卡数估算"},
    {"the stated layout and world size disagree", "写明的并行布局与总卡数不一致"},
    {"no --micro-batch-size (Megatron's default is 1)",
     "没有 --micro-batch-size（Megatron 的默认值为 1）"},
    {"no --seq-length in the script (Megatron has no default: it comes from elsewhere, such as a "
     "Retro project directory)",
     "脚本中没有 --seq-length（Megatron 没有默认值：它来自别处，例如 Retro 项目目录）"},
    {"--deepspeed without --zero-stage or its DeepSpeed JSON: give the JSON",
     "有 --deepspeed，但没有 --zero-stage 或它的 DeepSpeed JSON：请提供该 JSON"},
    {"no {} in the script", "脚本中没有 {}"},
    {"no {} in the script (it sources {}: give that file too)",
     "脚本中没有 {}（它引用了 {}：请一并提供该文件）"},
    {"{} holds no number (a variable the script does not set?)",
     "{} 不是数字（是脚本没有设置的变量？）"},
    {"{} holds no number (a variable the script does not set?) (it sources {}: give that file "
     "too)",
     "{} 不是数字（是脚本没有设置的变量？）（它引用了 {}：请一并提供该文件）"},
    {"or pick a preset / give a config.json", "或选一个预设 / 提供 config.json"},
    {"the vocabulary comes from a tokenizer file ({}); give --vocab-size or the model's "
     "config.json",
     "词表大小来自分词器文件（{}）；请给出 --vocab-size 或模型的 config.json"},
    {"the vocabulary comes from a tokenizer file; give --vocab-size or the model's config.json",
     "词表大小来自分词器文件；请给出 --vocab-size 或模型的 config.json"},
    {"NPROC_PER_NODE holds no number: give the processes a node",
     "NPROC_PER_NODE 不是数字：请填写每个节点的进程数"},
    {"the job file does not set the number of devices; a comment ({}) says {}",
     "任务文件未设置卡数；注释（{}）写的是 {}"},
    {"the job file does not name the accelerator; a comment ({}) names it",
     "任务文件未写明加速卡；注释（{}）写到了它"},
    {"the torchtitan job file or recipe was not given; give it or pick a model",
     "没有提供 torchtitan 任务文件或配方；请提供，或选一个模型"},
    {"no [model] name/flavor or model_registry(...) in the files; pick a preset or give the "
     "model's config.json",
     "文件中没有 [model] name/flavor 或 model_registry(...)；请选一个预设，或提供模型的 "
     "config.json"},
    {"torchtitan model '{}' flavor '{}' has no preset here; give its config.json (or pick a "
     "preset)",
     "torchtitan 模型 '{}' 的 flavor '{}' 在这里没有预设；请提供它的 config.json（或选一个预设）"},
    {"torchtitan model flavor '{}' has no preset here; give its config.json (or pick a preset)",
     "torchtitan 模型 flavor '{}' 在这里没有预设；请提供它的 config.json（或选一个预设）"},
    {"the NVFP4 converter keeps the last {} of the blocks in bf16; the model's block count is "
     "not known",
     "NVFP4 转换器把最后 {} 比例的层保留为 bf16；模型层数未知"},
    {"tokenizer.max_seq_len is null or absent: samples keep their own length; give the longest",
     "tokenizer.max_seq_len 为 null 或缺失：样本保持各自的长度；请填写最长样本的长度"},
    {"{} (the --deepspeed config) was not given: ZeRO stage {} is read from its name",
     "没有提供 {}（--deepspeed 指定的配置）：ZeRO 阶段 {} 由文件名读出"},
    {"{} (the --deepspeed config) was not given: give it to read its ZeRO stage",
     "没有提供 {}（--deepspeed 指定的配置）：请提供它，以读取 ZeRO 阶段"},
    {"--sequence-parallel with tensor parallel size 1: sequence parallelism needs TP > 1 "
     "(Megatron turns it off)",
     "--sequence-parallel 但张量并行度为 1：序列并行需要 TP > 1（Megatron 会关闭它）"},
    {"{} runs train_fsdp2.py with {}, which was not given: only the command line's settings are "
     "read (give the YAML with the script)",
     "{} 用 {} 运行 train_fsdp2.py，但没有提供该文件：只读取了命令行上的设置（请把该 YAML 与脚本"
     "一起提供）"},
    {"mixed_precision {}: NVFP4 training is not read from a Megatron-Bridge config; estimated "
     "without it",
     "mixed_precision {}：不从 Megatron-Bridge 配置读取 NVFP4 训练；估算时不计入"},
    {"{} takes its Trainer arguments from {}, which was not given: only the command line is read "
     "(give the file too)",
     "{} 从 {} 读取 Trainer 参数，但没有提供该文件：只读取了命令行（请一并提供该文件）"},
    {"the arguments are in {}, which was not given: only the command line is read (give the file "
     "too)",
     "参数在 {} 中，但没有提供该文件：只读取了命令行（请一并提供该文件）"},
    {"{}: the torchtitan job {} was not given: only the command line's overrides are read (give "
     "it too)",
     "{}：没有提供 torchtitan 任务 {}：只读取了命令行上的覆盖项（请一并提供）"},
    {"{}: the comment says {} but {} is {}; the value is used",
     "{}：注释写的是 {}，但 {} 为 {}；采用该值"},
    {"the layout does not fit the stated world size {} ({}); estimated with {} devices",
     "并行布局与写明的总卡数 {} 不符（{}）；按 {} 张卡估算"},
    {"{} is not divisible by TP·PP·CP = {}: Megatron refuses to start (parallel_state.py "
     "initialize_model_parallel); the world size is kept",
     "{} 不能被 TP·PP·CP = {} 整除：Megatron 会拒绝启动（parallel_state.py "
     "initialize_model_parallel）；保留该总卡数"},
    {"{} is not divisible by the expert layout ETP·EP·PP = {} (expert parallelism borrows from "
     "the data-parallel ranks): Megatron refuses to start (parallel_state.py "
     "initialize_model_parallel); the world size is kept",
     "{} 不能被专家布局 ETP·EP·PP = {} 整除（专家并行占用数据并行的 rank）：Megatron 会拒绝启动"
     "（parallel_state.py initialize_model_parallel）；保留该总卡数"},
    {"optim {} is not one trainmem models: AdamW assumed",
     "optim {} 不是 trainmem 建模的优化器：按 AdamW 估算"},
    {"stage {} runs a frozen reference copy of the model beside the trained one: its weights are "
     "not counted (an under-estimate)",
     "stage {} 在训练的模型旁还运行一份冻结的参考模型：其权重未计入（低估）"},
    {"rlhf_type {} keeps a frozen reference copy of the model beside the trained one: its "
     "weights are not counted (an under-estimate)",
     "rlhf_type {} 在训练的模型旁还保留一份冻结的参考模型：其权重未计入（低估）"},
    {"{}: no Megatron arguments found (no pretrain_*.py launch and no *ARGS* variables)",
     "{}：没有找到 Megatron 参数（没有 pretrain_*.py 启动命令，也没有 *ARGS* 变量）"},
    {"adapter {} is not LoRA: estimated as full fine-tuning",
     "adapter {} 不是 LoRA：按全参微调估算"},
    {"finetuning_type {} trains part of the model: estimated as full fine-tuning (an "
     "over-estimate)",
     "finetuning_type {} 只训练模型的一部分：按全参微调估算（高估）"},
    // What the import left out (the collapsed "ignored" list) and the shell reader's notes.
    {"the rest of the section: I/O, logging, schedule or data setting: does not change device "
     "memory",
     "该节其余部分：I/O、日志、调度或数据设置：不影响显存"},
    {"I/O, logging, schedule or data setting: does not change device memory",
     "I/O、日志、调度或数据设置：不影响显存"},
    {"I/O, logging or data setting: does not change device memory",
     "I/O、日志或数据设置：不影响显存"},
    {"not modelled: if it changes device memory, the estimate does not count it",
     "未建模：若它影响显存，估算没有计入"},
    {"a field of the precision recipe {}, which is read by its name; this field is not modelled",
     "精度配方 {} 的字段（该配方按名称读取）；此字段未建模"},
    {"launcher option (cluster, container, data or run control): does not change device memory",
     "启动器选项（集群、容器、数据或运行控制）：不影响显存"},
    {"optimizer or training hyper-parameter: does not change device memory",
     "优化器或训练超参数：不影响显存"},
    {"kernel fusion: the memory model assumes Megatron's fused kernels",
     "算子融合：显存模型假定使用 Megatron 的融合算子"},
    {"\"auto\"; gradient accumulation does not change the peak", "\"auto\"；梯度累积不改变峰值"},
    {"\"auto\": the global batch is set by the HF Trainer",
     "\"auto\"：全局 batch 由 HF Trainer 设定"},
    {"gradient accumulation does not change the per-device peak", "梯度累积不改变每卡峰值"},
    {"does not change device memory", "不影响显存"},
    {"communication / bucketing setting", "通信 / 分桶设置"},
    {"optimizer hyperparameter, schedule, checkpointing or logging: not device memory",
     "优化器超参数、调度、检查点或日志：与显存无关"},
    {"data loading: not device memory", "数据加载：与显存无关"},
    {"how the model is built while loading (host memory): not the training peak",
     "加载时如何构建模型（主机内存）：不是训练峰值"},
    {"a run, logging or data switch: not device memory", "运行、日志或数据开关：与显存无关"},
    {"job metadata", "任务元数据"},
    {"the global batch sets gradient accumulation, which does not change the per-device peak",
     "全局 batch 决定梯度累积，不改变每卡峰值"},
    {"[checkpoint] does not change device memory", "[checkpoint] 不影响显存"},
    {"no virtual pipeline stages", "没有虚拟流水线阶段"},
    {"a word of the launch line that is neither an option nor a KEY=VALUE override",
     "启动命令中既不是选项、也不是 KEY=VALUE 覆盖项的词"},
    {"use_precision_aware_optimizer is false: Megatron keeps fp32 states",
     "use_precision_aware_optimizer 为 false：Megatron 保留 fp32 状态"},
    {"{} is false: unused", "{} 为 false：未使用"},
    {"{} is false: the sharding strategy is unused", "{} 为 false：分片策略未使用"},
    {"applied to {}, read there", "作用于 {}，在那里读取"},
    {"the model's copy of {}, read there", "模型中 {} 的副本，在那里读取"},
    {"no hybrid_override_pattern: no Mamba layers, their default unused",
     "没有 hybrid_override_pattern：没有 Mamba 层，其默认值未使用"},
    {"dense model (num_moe_experts is null)", "Dense 模型（num_moe_experts 为 null）"},
    {"dense model (num_moe_experts is null): the dump's MoE default is unused",
     "Dense 模型（num_moe_experts 为 null）：导出配置中的 MoE 默认值未使用"},
    {"{} is null: unused (the dump carries the default)",
     "{} 为 null：未使用（导出配置带的是默认值）"},
    {"caps the parameters ZeRO-3 keeps gathered: the estimate counts two layers gathered and "
     "DeepSpeed's default prefetch bucket",
     "限制 ZeRO-3 保持聚合的参数量：估算按两层已聚合加 DeepSpeed 默认的预取桶计算"},
    {"NeMo 2 setting with no Megatron-Bridge key that changes device memory (logging, "
     "checkpointing, trainer loop)",
     "NeMo 2 的设置，没有对应的、影响显存的 Megatron-Bridge 键（日志、检查点、训练循环）"},
    {"{}: {} is not set: its default '{}' is used", "{}：{} 未设置：使用其默认值 '{}'"},
    {"{}: argument {}: its default '{}' is used", "{}：参数 {}：使用其默认值 '{}'"},
    {"{}: if {} → took this branch", "{}：if {} → 执行此分支"},
    {"{}: if {} → skipped this branch", "{}：if {} → 跳过此分支"},
    {"{}: source {}: that file was not given (add it to read its settings)",
     "{}：source {}：没有提供该文件（补上它即可读取其中的设置）"},
    {"{}: command substitution {} is not run; taken as empty",
     "{}：命令替换 {} 不会执行；按空值处理"},
    {"gradient_accumulation_steps {} does not change the per-device peak",
     "gradient_accumulation_steps {} 不改变每卡峰值"},
    {"torchtitan {} → preset {}", "torchtitan {} → 预设 {}"},
    {"{} recipes found; imported the first, '{}' (choose another with --config NAME)",
     "找到 {} 个配方；导入了第一个 '{}'（可在上方选择其他配方）"},
    {"activation_checkpointing present: the model is assumed to checkpoint every block",
     "有 activation_checkpointing：假定模型对每一层做检查点"},
    {"pipeline microbatches per step not derivable (global batch / (micro × DP)); assumed PP = {} "
     "(the most 1F1B keeps in flight)",
     "无法推出每步的流水线微批数（global batch / (micro × DP)）；假定为 PP = {}（1F1B 同时在途的"
     "最大数）"},
    {"world size {} ({})", "总卡数 {}（{}）"},
    {"{} = {} is not a whole number", "{} = {} 不是整数"},
    {"{} = {} is not true or false", "{} = {} 不是 true 或 false"},
};

// Names the core's templates put into their sentences ("Max reserved measured 0.77× the
// estimate …"): translated where they stand whole, as a message or as one of its arguments.
constexpr CoreMessage kCoreNames[] = {
    {"Max reserved", "峰值预留（max reserved）"},
    {"Max allocated", "峰值已分配（max allocated）"},
    {"Peak active", "峰值活跃（peak active）"},
    {"Allocated between steps", "两步之间的已分配"},
    {"Device memory used", "设备显存占用"},
    {"Parameters", "参数"},
    {"Gradients", "梯度"},
    {"Optimizer states", "优化器状态"},
    {"Activations", "激活"},
    {"Temporary buffers", "临时缓冲区"},
    {"parameters", "参数"},
    {"gradients", "梯度"},
    {"optimizer states", "优化器状态"},
    {"activations", "激活"},
    {"temporary buffers", "临时缓冲区"},
    {"missing required field", "缺少必填字段"},
    {"not given", "未给出"},
    // The kind of value a field got ("expected an integer, got a string").
    {"a string", "字符串"},
    {"a boolean", "布尔值"},
    {"a number", "数字"},
    {"an object", "对象"},
    // What each link key takes (share_link_decode.cpp, LinkKeyExpects), after "(tp expects …)".
    {"a model preset id such as llama3-8b, or custom with m.* fields",
     "预置模型 id（如 llama3-8b），或 custom 加 m.* 字段"},
    {"a device preset id such as h100-80gb, or custom with dev.name and dev.gib",
     "预置设备 id（如 h100-80gb），或 custom 加 dev.name 和 dev.gib"},
    {"detailed or template", "detailed 或 template"},
    {"torchtitan, torchtitan-npu, megatron, deepspeed or torchtune",
     "torchtitan、torchtitan-npu、megatron、deepspeed 或 torchtune"},
    {"the number of devices, a whole number from 1 to 1048576", "卡数，1 到 1048576 之间的整数"},
    {"the local batch size per device, a whole number from 1", "单卡 batch 大小，不小于 1 的整数"},
    {"the sequence length in tokens, a whole number from 1",
     "序列长度（token 数），不小于 1 的整数"},
    {"bfloat16, float16 or float32", "bfloat16、float16 或 float32"},
    {"1 or 0", "1 或 0"},
    {"the decoder blocks (from the first) with NVFP4 linears: 0, up to the layers, or -1",
     "线性层用 NVFP4 的解码层数（从第一层算起）：0 到层数，或 -1"},
    {"flash, sdpa or eager", "flash、sdpa 或 eager"},
    {"a probability from 0 to 1, or null for the framework's default",
     "0 到 1 之间的概率，或 null 表示框架默认值"},
    {"the number of loss chunks, a whole number from 1 up to s", "loss 分块数，1 到 s 之间的整数"},
    {"the LoRA rank, a whole number from 0 (every weight trains) to 65536",
     "LoRA 秩，0（全部权重都训练）到 65536 之间的整数"},
    {"a comma-separated list of model and loss", "model 和 loss 组成的逗号分隔列表"},
    {"the data-parallel replicas, a whole number from 1", "数据并行副本数，不小于 1 的整数"},
    {"the FSDP degree, a whole number from 1, or -1 for the devices left over",
     "FSDP 分片数，不小于 1 的整数，或 -1 表示用剩下的卡"},
    {"the tensor-parallel degree, a whole number from 1 that divides ws and the heads",
     "张量并行度，能整除 ws 和注意力头数的正整数"},
    {"the pipeline-parallel degree, a whole number from 1 up to the layers",
     "流水线并行度，1 到层数之间的整数"},
    {"the context-parallel degree, a whole number from 1", "上下文并行度，不小于 1 的整数"},
    {"the expert-parallel degree, a whole number that divides the experts",
     "专家并行度，能整除专家数的整数"},
    {"the expert tensor-parallel degree, 1 or tp", "专家张量并行度，1 或 tp"},
    {"the pipeline microbatch size, a whole number that divides b",
     "流水线微批大小，能整除 b 的整数"},
    {"1F1B, Interleaved1F1B, GPipe or ZeroBubble", "1F1B、Interleaved1F1B、GPipe 或 ZeroBubble"},
    {"the layers per pipeline stage, 0 for an even split", "每个流水线阶段的层数，0 表示均分"},
    {"a ZeRO stage from 0 to 3, or null", "ZeRO 阶段 0 到 3，或 null"},
    {"default, always or never (FSDP reshard after forward)",
     "default、always 或 never（FSDP 前向后是否重新切分）"},
    {"standard, deepep, hybridep or minimal_async_ep (torchtitan's EP dispatcher)",
     "standard、deepep、hybridep 或 minimal_async_ep（torchtitan 的 EP 分发器）"},
    {"none, selective or full", "none、selective 或 full"},
    {"op, or a whole number k (every k-th block)", "op，或整数 k（每 k 层一层）"},
    {"with ac=full, the blocks recomputed per pipeline stage: 0 (all) up to the layers",
     "ac=full 时每个流水线阶段重计算的层数：0（全部）到层数"},
    {"AdamW, Adam, SGD, Lion, Adafactor, AdamW8bit, PagedAdamW8bit, PagedAdamW, AdamW4bit, "
     "Lion8bit, Muon, Shampoo or SOAP",
     "AdamW、Adam、SGD、Lion、Adafactor、AdamW8bit、PagedAdamW8bit、PagedAdamW、AdamW4bit、"
     "Lion8bit、Muon、Shampoo 或 SOAP"},
    {"float32, bfloat16 or int8", "float32、bfloat16 或 int8"},
    {"a number from 0 to 1", "0 到 1 之间的数"},
    {"the number of swap slices, a whole number from 1", "swap 分片数，不小于 1 的整数"},
    {"a share from 0 to 1 (0.1 = 10 %)", "0 到 1 之间的比例（0.1 = 10 %）"},
    {"a share above 0, at most 1 (0.95 = 95 %)", "大于 0、至多为 1 的比例（0.95 = 95 %）"},
    {"the custom device's name", "自定义设备的名称"},
    {"the custom device's memory in GiB, a number above 0", "自定义设备的显存（GiB），大于 0 的数"},
    {"devices per node, a whole number from 1", "每节点卡数，不小于 1 的整数"},
    {"1 for the compact card, 0 for the full page", "1 为紧凑卡片，0 为完整页面"},
    {"en or zh", "en 或 zh"},
};

// Matches `message` against `pattern` ({} = any text, at least one character); the arguments
// go to `args`.
bool Match(const char* pattern, const std::string& message, std::vector<std::string>& args) {
  args.clear();
  std::size_t at = 0;
  const std::string p = pattern;
  std::size_t from = 0;
  while (true) {
    const std::size_t hole = p.find("{}", from);
    const std::string literal =
        p.substr(from, hole == std::string::npos ? std::string::npos : hole - from);
    if (hole == std::string::npos) {
      // The last literal ends the message (a trailing " (tp expects …)" stays in English).
      if (message.compare(at, literal.size(), literal) != 0) return false;
      args.push_back(message.substr(at + literal.size()));
      return true;
    }
    if (message.compare(at, literal.size(), literal) != 0) return false;
    at += literal.size();
    const std::size_t next_hole = p.find("{}", hole + 2);
    const std::string next = p.substr(
        hole + 2, next_hole == std::string::npos ? std::string::npos : next_hole - hole - 2);
    const std::size_t end = next.empty() ? message.size() : message.find(next, at + 1);
    if (end == std::string::npos) return false;
    args.push_back(message.substr(at, end - at));
    at = end;
    from = hole + 2;
  }
}

// kCoreMessages, then each one that names a setting again in the link's words (a broken link's
// banner says "ws 64 is not divisible by tp·pp·cp·dpr", trainmem::InLinkWords).
const std::vector<std::pair<std::string, std::string>>& CoreTemplates() {
  static const auto templates = [] {
    std::vector<std::pair<std::string, std::string>> all;
    for (const CoreMessage& m : kCoreMessages) all.emplace_back(m.english, m.chinese);
    for (const CoreMessage& m : kCoreMessages) {
      const std::string english = trainmem::InLinkWords(m.english);
      if (english != m.english) all.emplace_back(english, trainmem::InLinkWords(m.chinese));
    }
    return all;
  }();
  return templates;
}

// A name of kCoreNames in Chinese, or the text itself.
std::string CoreName(const std::string& text) {
  for (const CoreMessage& n : kCoreNames)
    if (text == n.english) return n.chinese;
  return text;
}

Language g_language = Language::kEnglish;

}  // namespace

void SetLanguage(Language language) { g_language = language; }
Language CurrentLanguage() { return g_language; }

const char* Tr(Str id) {
  const int index = static_cast<int>(id);
  if (index < 0 || index >= static_cast<int>(Str::kCount)) return "";
  if (g_language == Language::kChinese) {
    const char* chinese = ChineseById()[index];
    if (chinese != nullptr) return chinese;
  }
  return kEnglish[index];
}

std::string TrFormat(Str id, ...) {
  char buffer[1024];
  std::va_list args;
  va_start(args, id);
  std::vsnprintf(buffer, sizeof(buffer), Tr(id), args);
  va_end(args);
  return buffer;
}

namespace {

// `message` in Chinese by the first template it matches. `whole`: only a template that matches
// all of it (no English tail left over). The arguments are names (kCoreNames) or, unless
// `nested`, messages of their own translated whole ("7 was not applied, …: must be at least 1,
// got -2").
bool TranslateCore(const std::string& message, bool whole, bool nested, std::string* out) {
  std::vector<std::string> args;
  for (const auto& [english, chinese] : CoreTemplates()) {
    if (!Match(english.c_str(), message, args)) continue;
    const bool tail = english.size() < 2 || english.compare(english.size() - 2, 2, "{}") != 0;
    if (whole && tail && !args.back().empty()) continue;
    out->clear();
    std::size_t arg = 0;
    for (const char* c = chinese.c_str(); *c != '\0'; ++c) {
      if (c[0] == '{' && c[1] == '}' && arg < args.size()) {
        std::string inner;
        const std::string name = CoreName(args[arg]);
        if (name != args[arg] || nested || !TranslateCore(args[arg], true, true, &inner))
          inner = name;
        *out += inner;
        ++arg;
        ++c;
      } else {
        *out += *c;
      }
    }
    // The text after the template's last literal (args.back()) is kept, untranslated.
    if (arg < args.size()) *out += args.back();
    return true;
  }
  return false;
}

}  // namespace

std::string TrCore(const std::string& message) {
  if (g_language != Language::kChinese) return message;
  std::string out;
  if (TranslateCore(message, true, false, &out)) return out;
  // A reason joined from parts ("no --num-layers in the script; no --hidden-size in the script
  // (…); or pick a preset / give a config.json"): each part whole, or none.
  if (message.find("; ") != std::string::npos) {
    std::string joined, part;
    bool all = true;
    for (std::size_t from = 0; all && from <= message.size();) {
      const std::size_t end = std::min(message.find("; ", from), message.size());
      all = TranslateCore(message.substr(from, end - from), true, false, &part);
      joined += (from == 0 ? "" : "\xEF\xBC\x9B") + part;  // a full-width semicolon
      from = end + 2;
    }
    if (all) return joined;
  }
  return TranslateCore(message, false, false, &out) ? out : CoreName(message);
}

std::vector<std::string> ChineseTexts() {
  std::vector<std::string> texts;
  for (const auto& entry : kChinese) texts.push_back(entry.second);
  for (const auto& t : CoreTemplates()) texts.push_back(t.second);
  for (const CoreMessage& n : kCoreNames) texts.push_back(n.chinese);
  return texts;
}

}  // namespace app
