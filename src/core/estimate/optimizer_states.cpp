// Optimizer state per parameter tensor, by optimizer (optimizer_states.h). Each formula cites
// the implementation it follows; n is a tensor's element count, r × c a matrix's shape, sb the
// bytes of one full-precision state element (optimizer.state_dtype).
//
// - AdamW / Adam (torch.optim, fused): exp_avg + exp_avg_sq = 2·n·sb.
// - AdamW8bit / PagedAdamW8bit (bitsandbytes optim/optimizer.py, Optimizer2State.init_state):
//   state1/state2 uint8 with one fp32 absmax per 256-element block = 2·(n + 4·⌈n/256⌉) bytes;
//   tensors under min_8bit_size = 4096 elements keep fp32 states (2·4·n). torchao's AdamW8bit
//   (torchao/optim: block_size 256, fp32 scale per block) has the same size.
// - AdamW4bit (torchao/optim AdamW4bit: 4-bit codes packed two per byte, block_size 128, one
//   fp32 scale per block; tensors under 4096 elements or not a multiple of the block stay plain)
//   = 2·(n/2 + 4·n/128) bytes.
// - Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms", Algorithm 1):
//   exp_avg only = n·sb. Lion8bit (bitsandbytes Optimizer1State): n + 4·⌈n/256⌉ bytes.
// - SGD (torch.optim.SGD): momentum_buffer when momentum > 0 = n·sb, else nothing.
// - Adafactor (Shazeer & Stern 2018, "Adafactor: Adaptive Learning Rates with Sublinear Memory
//   Cost", §3; torch.optim.Adafactor row_var / col_var): a matrix keeps a row and a column
//   second-moment vector = (r + c)·sb, a 1-D tensor its full second moment = n·sb; with a first
//   moment (HF transformers Adafactor with beta1 set; optimizer.first_moment) + n·sb.
// - Muon (Jordan et al. 2024, "Muon: An optimizer for hidden layers in neural networks";
//   torch.optim.Muon; Liu et al. 2025, "Muon is Scalable for LLM Training" (Moonlight), §2.2,
//   and Kimi K2): every 2-D weight of the blocks — attention, MLP, experts, routers — keeps one
//   momentum buffer = n·sb; the embedding, the output head and all 1-D tensors use AdamW =
//   2·n·sb.
// - Shampoo (Gupta et al. 2018; Distributed Shampoo, Shi et al. 2023, arXiv:2309.06497,
//   facebookresearch/optimizers distributed_shampoo.py defaults): each tensor is cut into blocks
//   of at most max_preconditioner_dim (default 1024) per dimension; every block keeps, per
//   dimension of size d, a factor matrix and its inverse root, d² each, fp32
//   (factor_matrix_dtype / inv_factor_matrix_dtype) — 4·r·c for a matrix cut into full b × b
//   blocks, as the docstring's "Memory cost = 4mn" says; plus the filtered gradient (betas[0] =
//   0.9) and an Adam grafting second moment (AdamGraftingConfig keeps only the diagonal
//   second moment), n·sb each. 1-D tensors are blocked the same way (one factor per block).
// - SOAP (Vyas et al. 2024, "SOAP: Improving and Stabilizing Shampoo using Adam",
//   arXiv:2409.11321; reference soap.py defaults max_precond_dim 10000, precondition_1d False):
//   Adam's exp_avg + exp_avg_sq (2·n·sb) in the rotated basis, and per matrix dimension d ≤
//   max_precond_dim the preconditioner GG (d × d) and its eigenbasis Q (d × d), fp32; larger
//   dimensions and 1-D tensors are not preconditioned.
#include "core/estimate/optimizer_states.h"

#include <algorithm>
#include <cmath>

namespace trainmem::detail {
namespace {

constexpr double kFp32 = 4.0;

// bitsandbytes / torchao blockwise quantized state of n elements: `bits` per element plus one
// fp32 scale per block. Below min_size elements the state stays fp32.
double QuantizedState(double n, double bits, double block, double min_size) {
  if (n < min_size) return kFp32 * n;
  return n * bits / 8.0 + kFp32 * std::ceil(n / block);
}

// Σ over the blocks of one dimension d cut into pieces of at most b: Σ piece².
double SumOfSquaredPieces(double d, double b) {
  const double full = std::floor(d / b);
  const double rest = d - full * b;
  return full * b * b + rest * rest;
}

double Pieces(double d, double b) { return std::ceil(d / b); }

// Shampoo's factor matrices + inverse roots for one tensor (elements, fp32).
double ShampooPreconditioner(const ParamTensor& t, double b) {
  const double rows = static_cast<double>(t.rows);
  if (t.cols == 0) return 2.0 * SumOfSquaredPieces(rows, b);
  const double cols = static_cast<double>(t.cols);
  // Every block (i, j) keeps L_i (a_i²) and R_j (c_j²): Σ_ij (a_i² + c_j²).
  const double factors =
      Pieces(cols, b) * SumOfSquaredPieces(rows, b) + Pieces(rows, b) * SumOfSquaredPieces(cols, b);
  return 2.0 * factors;
}

double SoapPreconditioner(const ParamTensor& t, double max_dim) {
  if (t.cols == 0) return 0;  // precondition_1d = False
  double elements = 0;
  for (double d : {static_cast<double>(t.rows), static_cast<double>(t.cols)}) {
    if (d <= max_dim) elements += 2.0 * d * d;  // GG and Q
  }
  return elements;
}

bool IsMatrixOfTheBlocks(const ParamTensor& t) {
  return t.cols > 0 && (t.group == ParamTensor::kBlock || t.group == ParamTensor::kExpert ||
                        t.group == ParamTensor::kMtp);
}

// Bytes of state for one tensor of the shape (one occurrence).
double TensorStateBytes(const Config& c, const ParamTensor& t, double sb) {
  const double n = static_cast<double>(t.rows) * static_cast<double>(t.cols > 0 ? t.cols : 1);
  const Optimizer& o = c.optimizer;
  switch (o.name) {
    case OptimizerKind::kAdamW:
    case OptimizerKind::kAdam:
    case OptimizerKind::kPagedAdamW:
      return 2.0 * n * sb;
    case OptimizerKind::kAdamW8bit:
    case OptimizerKind::kPagedAdamW8bit:
      return 2.0 * QuantizedState(n, 8, 256, 4096);
    case OptimizerKind::kAdamW4bit: {
      const bool quantized = n >= 4096 && std::fmod(n, 128.0) == 0;
      return quantized ? 2.0 * QuantizedState(n, 4, 128, 0) : 2.0 * n * kFp32;
    }
    case OptimizerKind::kLion:
      return n * sb;
    case OptimizerKind::kLion8bit:
      return QuantizedState(n, 8, 256, 4096);
    case OptimizerKind::kSgd:
      return o.momentum > 0 ? n * sb : 0.0;
    case OptimizerKind::kAdafactor: {
      const double second = t.cols > 0 ? static_cast<double>(t.rows + t.cols) : n;
      return (second + (o.first_moment ? n : 0.0)) * sb;
    }
    case OptimizerKind::kMuon:
      return (IsMatrixOfTheBlocks(t) ? 1.0 : 2.0) * n * sb;
    case OptimizerKind::kShampoo: {
      const double b =
          o.max_preconditioner_dim > 0 ? static_cast<double>(o.max_preconditioner_dim) : 1024.0;
      return 2.0 * n * sb + kFp32 * ShampooPreconditioner(t, b);
    }
    case OptimizerKind::kSoap: {
      const double max_dim =
          o.max_preconditioner_dim > 0 ? static_cast<double>(o.max_preconditioner_dim) : 10000.0;
      return 2.0 * n * sb + kFp32 * SoapPreconditioner(t, max_dim);
    }
  }
  return 2.0 * n * sb;
}

// Optimizers whose state is the same for every element whatever the tensor's shape: bytes per
// parameter, or a negative value when the shapes matter.
double UniformStateBytes(const Config& config, double sb) {
  switch (config.optimizer.name) {
    case OptimizerKind::kAdamW:
    case OptimizerKind::kAdam:
    case OptimizerKind::kPagedAdamW:
      return 2.0 * sb;
    case OptimizerKind::kLion:
      return sb;
    case OptimizerKind::kSgd:
      return config.optimizer.momentum > 0 ? sb : 0.0;
    default:
      return -1.0;
  }
}

struct GroupTotals {
  double bytes[3] = {0, 0, 0};  // block, expert, root
  double params[3] = {0, 0, 0};
};

GroupTotals SumOverTensors(const Config& config, double sb) {
  std::vector<ParamTensor> computed;
  const std::vector<ParamTensor>* tensors = config.model.tensors.get();
  if (tensors == nullptr) {  // a hand-built ModelArch: derive the shapes now
    computed = ParamTensors(config.model);
    tensors = &computed;
  }
  GroupTotals g;
  for (const ParamTensor& t : *tensors) {
    int group = 0;  // block (and MTP)
    if (t.group == ParamTensor::kExpert) group = 1;
    if (t.group == ParamTensor::kEmbedding || t.group == ParamTensor::kHead ||
        t.group == ParamTensor::kFinalNorm)
      group = 2;
    const double count = static_cast<double>(t.count);
    g.bytes[group] += count * TensorStateBytes(config, t, sb);
    g.params[group] += static_cast<double>(t.elements());
  }
  return g;
}

}  // namespace

OptimizerStateRatios OptimizerStateBytesPerParam(const Config& config, double state_bytes) {
  const double uniform = UniformStateBytes(config, state_bytes);
  if (uniform >= 0) return {uniform, uniform, uniform};
  const GroupTotals g = SumOverTensors(config, state_bytes);
  auto ratio = [&](int i) { return g.params[i] > 0 ? g.bytes[i] / g.params[i] : 0.0; };
  return {ratio(0), ratio(1), ratio(2)};
}

double OptimizerStateBytes(const Config& config, const StageParams& stage, double dense_shards,
                           double expert_shards, double state_bytes) {
  const OptimizerStateRatios r = OptimizerStateBytesPerParam(config, state_bytes);
  const double block = std::max(0.0, stage.dense_per_device - stage.root_params);
  const double dense = block * r.block + stage.root_params * r.root;
  return dense / std::max(1.0, dense_shards) +
         stage.expert_per_device * r.expert / std::max(1.0, expert_shards);
}

double OptimizerStatesPerParam(const Config& config) {
  // The whole model's state in state_dtype units per parameter (template mode's single figure).
  const double sb = static_cast<double>(DTypeBytes(config.optimizer.state_dtype));
  const double uniform = UniformStateBytes(config, sb);
  if (uniform >= 0) return uniform / sb;
  const GroupTotals g = SumOverTensors(config, sb);
  const double params = g.params[0] + g.params[1] + g.params[2];
  return params > 0 ? (g.bytes[0] + g.bytes[1] + g.bytes[2]) / (params * sb) : 0.0;
}

std::vector<std::string> OptimizerWarnings(const Config& config) {
  std::vector<std::string> out;
  switch (config.optimizer.name) {
    case OptimizerKind::kPagedAdamW:
    case OptimizerKind::kPagedAdamW8bit:
      out.push_back(
          std::string(OptimizerName(config.optimizer.name)) +
          " keeps its states in CUDA unified memory (bitsandbytes paged optimizers): counted here "
          "as device memory, but torch.cuda.max_memory_reserved does not show them and under "
          "memory pressure the driver pages them to the host instead of failing");
      break;
    case OptimizerKind::kMuon:
      out.push_back(
          "Muon: one momentum buffer for every 2-D weight of the blocks (attention, MLP, "
          "experts, routers); AdamW states for the embedding, the output head and 1-D "
          "parameters (as Moonlight and Kimi K2 train)");
      break;
    case OptimizerKind::kShampoo:
      out.push_back(
          "Shampoo: Distributed Shampoo defaults — blocks of at most " +
          std::to_string(config.optimizer.max_preconditioner_dim > 0
                             ? config.optimizer.max_preconditioner_dim
                             : 1024) +
          " per dimension, fp32 factor matrices and inverse roots, filtered gradient and Adam "
          "grafting; optimizer.max_preconditioner_dim changes the block size");
      break;
    case OptimizerKind::kSoap:
      out.push_back(
          "SOAP: fp32 preconditioner and eigenbasis for every matrix dimension up to " +
          std::to_string(config.optimizer.max_preconditioner_dim > 0
                             ? config.optimizer.max_preconditioner_dim
                             : 10000) +
          " (max_precond_dim), Adam moments for every parameter, 1-D tensors not preconditioned");
      break;
    default:
      break;
  }
  return out;
}

}  // namespace trainmem::detail
