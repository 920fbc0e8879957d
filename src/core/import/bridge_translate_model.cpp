// Megatron-Bridge model keys → Megatron-LM arguments: the shape, attention and vocabulary
// (TransformerConfig / GPTModelProvider fields, notes/bridge17/REPORT.md (b)), then the layer
// variants read only with the key that switches each on, since a dump carries every default.
#include <string>
#include <vector>

#include "core/import/bridge_translator.h"

namespace trainmem::import_detail::bridge_translate {

void TranslateModel(Translator& t, Builder& b) {
  auto m = [&](const char* key) { return t.Model(key); };
  t.Use("model._target_");
  t.Use("model.transformer._target_");
  t.Use("model._builder_");
  if (t.Set("model._target_"))
    b.Note("model class " + ArgText(t.At("model._target_")) +
           ": the architecture is read from the model.* numbers, not from the class");
  t.Value(m("num_layers"), "--num-layers");
  t.Value(m("hidden_size"), "--hidden-size");
  t.Value(m("ffn_hidden_size"), "--ffn-hidden-size");
  t.Value(m("num_attention_heads"), "--num-attention-heads");
  if (t.Set(m("num_query_groups"))) {
    t.Emit(m("num_query_groups"), "--group-query-attention");
    t.Value(m("num_query_groups"), "--num-query-groups");
  }
  t.Value(m("kv_channels"), "--kv-channels");
  t.Value(m("normalization"), "--normalization");
  t.Value(m("position_embedding_type"), "--position-embedding-type");
  if (t.Set(m("add_bias_linear")) && !t.IsTrue(m("add_bias_linear")))
    t.Emit(m("add_bias_linear"), "--disable-bias-linear");
  t.Use(m("add_bias_linear"));
  t.Switch(m("add_qkv_bias"), "--add-qkv-bias");
  t.Switch(m("qk_layernorm"), "--qk-layernorm");
  // gated_linear_unit with activation_func: SwiGLU (silu) or GeGLU (gelu); Megatron's default
  // without either is the GELU MLP (TransformerConfig: gated_linear_unit False, gelu).
  const std::string act = TargetOf(t.At(m("activation_func")));
  if (t.IsTrue(m("gated_linear_unit"))) {
    if (act.find("silu") != std::string::npos) {
      t.Emit(m("gated_linear_unit"), "--swiglu");
      t.Use(m("activation_func"));
    } else if (act.find("gelu") != std::string::npos) {
      t.Emit(m("gated_linear_unit"), "--geglu");
      t.Use(m("activation_func"));
    } else {
      t.Unused(m("activation_func"),
               "gated activation '" + act + "' not read: the MLP is estimated as SwiGLU's");
      t.Emit(m("gated_linear_unit"), "--swiglu");
    }
  } else {
    t.Use(m("gated_linear_unit"));
    if (act.empty() || act.find("gelu") != std::string::npos) t.Use(m("activation_func"));
    t.Unused(m("activation_func"), "activation '" + act + "' not read: GELU's is estimated");
  }
  if (t.Set("model.share_embeddings_and_output_weights") &&
      !t.IsTrue("model.share_embeddings_and_output_weights"))
    t.Emit("model.share_embeddings_and_output_weights", "--untie-embeddings-and-output-weights");
  t.Use("model.share_embeddings_and_output_weights");
  // Vocabulary: padded to divisible_by × TP only with should_pad_vocab (gpt_provider.py
  // 234-239 @v0.2.0); a null vocab_size is the tokenizer's, and setup then pads it
  // (training/setup.py 447-450).
  t.Use("model.should_pad_vocab");
  t.Use("model.make_vocab_size_divisible_by");
  if (t.Set("model.vocab_size") && !t.IsTrue("model.should_pad_vocab")) {
    t.Value("model.vocab_size", "--padded-vocab-size");
    t.Unused("model.make_vocab_size_divisible_by",
             "should_pad_vocab is false: the vocabulary is not padded");
  } else {
    const std::string vocab =
        t.Set("model.vocab_size") ? "model.vocab_size" : "tokenizer.vocab_size";
    t.Value(vocab, "--vocab-size");
    if (t.Set(vocab))
      t.Value("model.make_vocab_size_divisible_by", "--make-vocab-size-divisible-by");
  }
  // The model's position table (learned_absolute) is seq_length long; the trained length is
  // the dataset's (TranslateJob).
  t.Value("model.seq_length", "--max-position-embeddings");
  t.Value(m("transformer_impl"), "--transformer-impl");
  t.Switch(m("cross_entropy_loss_fusion"), "--cross-entropy-loss-fusion");
  t.Value(m("cross_entropy_fusion_impl"), "--cross-entropy-fusion-impl");
}

// MoE, MLA, MTP and Mamba layers: read only with the key that switches each on, since the dump
// carries every default of TransformerConfig.
void TranslateLayerVariants(Translator& t) {
  auto m = [&](const char* key) { return t.Model(key); };
  // MoE: Bridge dumps TransformerConfig's MoE defaults (moe_router_topk 2) for dense models.
  const bool moe = t.Set(m("num_moe_experts"));
  const char* moe_keys[][2] = {
      {"moe_router_topk", "--moe-router-topk"},
      {"moe_ffn_hidden_size", "--moe-ffn-hidden-size"},
      {"moe_shared_expert_intermediate_size", "--moe-shared-expert-intermediate-size"}};
  if (moe) {
    t.Value(m("num_moe_experts"), "--num-experts");
    for (const auto& [key, flag] : moe_keys) t.Value(m(key), flag);
    // An int k (every k-th layer) or a per-layer 0/1 list, which Megatron's flag writes as a
    // Python list.
    const json& freq = t.At(m("moe_layer_freq"));
    if (freq.is_array()) {
      std::string list = "[";
      for (const json& v : freq) list += (list.size() > 1 ? "," : "") + ArgText(v);
      t.Emit(m("moe_layer_freq"), "--moe-layer-freq", {list + "]"});
    } else {
      t.Value(m("moe_layer_freq"), "--moe-layer-freq");
    }
    t.Switch(m("moe_grouped_gemm"), "--moe-grouped-gemm");
    t.Switch(m("moe_router_enable_expert_bias"), "--moe-router-enable-expert-bias");
  } else {
    for (const auto& [key, flag] : moe_keys)
      t.Unused(m(key), "dense model (num_moe_experts is null): the dump's MoE default is unused");
    t.Unused(m("moe_layer_freq"), "dense model (num_moe_experts is null)");
  }
  // MLA (MLATransformerConfig), only with its switch.
  const char* mla_keys[][2] = {{"q_lora_rank", "--q-lora-rank"},
                               {"kv_lora_rank", "--kv-lora-rank"},
                               {"qk_head_dim", "--qk-head-dim"},
                               {"qk_pos_emb_head_dim", "--qk-pos-emb-head-dim"},
                               {"v_head_dim", "--v-head-dim"}};
  if (t.IsTrue(m("multi_latent_attention"))) {
    t.Emit(m("multi_latent_attention"), "--multi-latent-attention");
    for (const auto& [key, flag] : mla_keys) t.Value(m(key), flag);
  } else {
    t.Use(m("multi_latent_attention"));
    for (const auto& [key, flag] : mla_keys)
      t.Unused(m(key), "multi_latent_attention is false: MLA dimensions unused");
  }
  t.Value(m("mtp_num_layers"), "--mtp-num-layers");
  // Mamba / hybrid (Nemotron-H): the layer pattern and the mixer's dimensions.
  const char* mamba_keys[][2] = {{"mamba_state_dim", "--mamba-state-dim"},
                                 {"mamba_head_dim", "--mamba-head-dim"},
                                 {"mamba_num_groups", "--mamba-num-groups"},
                                 {"mamba_num_heads", "--mamba-num-heads"}};
  t.Use(m("is_hybrid_model"));
  if (t.Set(m("hybrid_override_pattern"))) {
    t.Value(m("hybrid_override_pattern"), "--hybrid-override-pattern");
    for (const auto& [key, flag] : mamba_keys) t.Value(m(key), flag);
  } else {
    for (const auto& [key, flag] : mamba_keys)
      t.Unused(m(key), "no hybrid_override_pattern: no Mamba layers, their default unused");
  }
}

}  // namespace trainmem::import_detail::bridge_translate
