// Attention shapes read by the fields that say so, whatever the model_type: sliding-window layers
// shaped unlike the full-attention ones (the swa_* keys of XiaomiMiMo/MiMo-V2-Flash's config.json,
// and the layout transformers' MiMoV2FlashConfig implies when a config leaves them out), and
// Step3's low-rank query (share_q_dim).
#include "core/model/model.h"
#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {

namespace {

// The sliding-window layers from hybrid_layer_pattern (MiMo-V2-Flash: one 0/1 entry per layer,
// 1 = sliding window) when layer_types has not already said which they are.
void ReadHybridLayerPattern(FieldReader& f, ModelArch& a) {
  const std::optional<std::vector<std::int64_t>> pattern = f.IntList("hybrid_layer_pattern", 0, 1);
  if (!pattern) return;
  if (static_cast<std::int64_t>(pattern->size()) != a.num_layers) {
    f.Fail("hybrid_layer_pattern", "expected one entry per layer (" + std::to_string(a.num_layers) +
                                       "), got " + std::to_string(pattern->size()));
    return;
  }
  // A sliding_window alone makes every layer sliding (ReadLayerKinds); the pattern says which.
  if (f.Has("layer_types")) return;
  a.layer_uses_sliding.assign(pattern->begin(), pattern->end());
}

}  // namespace

// MiMo-V2-Flash (transformers models/mimo_v2_flash/modeling_mimo_v2_flash.py
// MiMoV2FlashAttention; the hub config's swa_* keys): q_proj and k_proj head_dim per head,
// v_proj v_head_dim per KV head, o_proj num_heads · v_head_dim → h; the sliding-window layers
// have swa_num_key_value_heads KV heads (transformers: twice num_key_value_heads) and one sink
// logit per query head (add_swa_attention_sink_bias; add_full_attention_sink_bias for the
// others). Its MTP blocks (model.mtp.*) are dense sliding-window blocks that read the main
// embedding and head.
void ReadSlidingWindowShapes(FieldReader& f, ModelArch& a) {
  const bool mimo = a.model_type == "mimo_v2_flash" || a.model_type == "mimo_v2";
  if (a.attention != AttentionKind::kGqa) return;
  ReadHybridLayerPattern(f, a);
  if (mimo && !f.Has("layer_types") && !f.Has("hybrid_layer_pattern")) {
    // MiMoV2FlashConfig's default: full attention at layer 0 and every 6th layer.
    a.layer_uses_sliding.resize(static_cast<std::size_t>(a.num_layers));
    for (std::int64_t i = 0; i < a.num_layers; ++i)
      a.layer_uses_sliding[static_cast<std::size_t>(i)] = i != 0 && (i + 1) % 6 != 0;
  }
  const std::optional<std::int64_t> value = f.Int("v_head_dim", 1, kMaxWidth);
  if (value && *value != a.head_dim) a.value_head_dim = *value;
  const bool sliding = !a.layer_uses_sliding.empty();
  const std::int64_t values = a.value_head_dim > 0 ? a.value_head_dim : a.head_dim;
  if (const auto width = f.Int("swa_head_dim", 1, kMaxWidth); width && *width != a.head_dim) {
    f.Fail("swa_head_dim", "a head width of " + std::to_string(*width) +
                               " on the sliding-window layers and " + std::to_string(a.head_dim) +
                               " on the others: trainmem models one head width for both");
  }
  if (const auto width = f.Int("swa_v_head_dim", 1, kMaxWidth); width && *width != values) {
    f.Fail("swa_v_head_dim", "a value width of " + std::to_string(*width) +
                                 " on the sliding-window layers and " + std::to_string(values) +
                                 " on the others: trainmem models one value width for both");
  }
  const std::optional<std::int64_t> heads = f.Int("swa_num_attention_heads", 1, kMaxHeads);
  if (heads && *heads != a.num_heads && sliding) a.sliding_heads = *heads;
  std::optional<std::int64_t> kv = f.Int("swa_num_key_value_heads", 1, kMaxHeads);
  if (!kv && mimo && a.num_kv_heads > 0) kv = 2 * a.num_kv_heads;
  if (kv && *kv != a.num_kv_heads && sliding) {
    const std::int64_t q = a.sliding_heads > 0 ? a.sliding_heads : a.num_heads;
    if (q % *kv != 0) {
      f.Fail("swa_num_key_value_heads", std::to_string(q) +
                                            " query heads are not a multiple of the " +
                                            std::to_string(*kv) + " key/value heads");
      return;
    }
    a.sliding_kv_heads = *kv;
  }
  const std::optional<bool> full_sinks = f.Bool("add_full_attention_sink_bias");
  const std::optional<bool> swa_sinks = f.Bool("add_swa_attention_sink_bias");
  if (full_sinks || swa_sinks || mimo) {
    // gpt-oss's sinks (every layer) stay as its family set them.
    const bool everywhere = a.attention_sinks || full_sinks.value_or(false);
    const bool on_sliding = swa_sinks.value_or(mimo) && sliding;
    a.attention_sinks = everywhere || on_sliding;
    a.sinks_sliding_only = on_sliding && !everywhere;
  }
  if (mimo) {
    // MiMoV2FlashTopkRouter stores e_score_correction_bias whatever topk_method says.
    if (a.num_experts > 0) a.router_bias = true;
    a.mtp_embedding_copies = false;
    a.mtp_dense = true;
    a.mtp_sliding = sliding;
  }
}

// Step3 (stepfun-ai/step3, modeling_step3.py Step3vAttention): q_proj h → share_q_dim, inter_norm
// (RMSNorm over share_q_dim), wq share_q_dim → num_attention_heads · head_dim; keys and values
// have num_attention_groups heads (read as the KV heads). The card's text model: 61 layers of
// 7,168, a 2,048-wide query, 64 heads of 256. Step3VLConfig keeps it under text_config.
void ReadLowRankQuery(FieldReader& f, ModelArch& a) {
  const std::optional<std::int64_t> rank = f.Int("share_q_dim", 1, kMaxWidth);
  if (!rank) return;
  if (a.attention != AttentionKind::kGqa) {
    f.Fail("share_q_dim", "a low-rank query is read for grouped-query attention only");
    return;
  }
  a.query_rank = *rank;
}

}  // namespace model_detail
}  // namespace trainmem
