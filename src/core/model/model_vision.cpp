// Vision towers of multimodal checkpoints, counted from their vision_config so that
// `trainmem params` gives what the checkpoint stores (the hub's safetensors total of Gemma 3,
// LLaVA, … includes the tower and its projector). What a training job does with the tower is
// training.vision_tower (not loaded, frozen or trained); its image activations are not
// modelled.
//
// Each tower is written term by term from its Hugging Face modeling file; a field the
// vision_config leaves out takes its Config class default. A tower trainmem does not know, or
// a vision_config field it cannot read, leaves the tower uncounted with a note that says why;
// the language model is still counted.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/model_detail.h"

namespace trainmem {
namespace model_detail {

namespace {

// The shape of a ViT encoder (CLIP, SigLIP): `layers` blocks of width `hidden` with an MLP of
// `mlp` and biased q/k/v/o projections and LayerNorms.
struct VitShape {
  std::int64_t hidden = 0;
  std::int64_t mlp = 0;
  std::int64_t layers = 0;
  std::int64_t channels = 3;
  std::int64_t image = 0;
  std::int64_t patch = 0;
};

// image_size as one side, or as a [side, side] pair (GLM-4V's and some processors' configs write
// a square so): the side whose square the position table covers. A pair whose sides differ is
// named as unread (trainmem's patch grids are square).
std::int64_t ImageSide(FieldReader& f, std::int64_t default_side) {
  const json* size = f.Get("image_size");
  if (size == nullptr || !size->is_array())
    return f.Int("image_size", 1, kMaxWidth).value_or(default_side);
  if (size->size() != 2 || !(*size)[0].is_number_integer() || (*size)[0] != (*size)[1] ||
      (*size)[0].get<std::int64_t>() < 1 || (*size)[0].get<std::int64_t>() > kMaxWidth) {
    f.Fail("image_size", "expected one side or a square [side, side]");
    return default_side;
  }
  return (*size)[0].get<std::int64_t>();
}

// Reads the ViT fields shared by CLIPVisionConfig and SiglipVisionConfig; `d` holds the Config
// class's defaults.
VitShape ReadVit(FieldReader& f, const VitShape& d) {
  VitShape s;
  s.hidden = f.Int("hidden_size", 1, kMaxWidth).value_or(d.hidden);
  s.mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(d.mlp);
  s.layers = f.Int("num_hidden_layers", 1, kMaxLayers).value_or(d.layers);
  s.channels = f.Int("num_channels", 1, 64).value_or(d.channels);
  s.image = ImageSide(f, d.image);
  s.patch = f.Int("patch_size", 1, kMaxWidth).value_or(d.patch);
  f.Int("num_attention_heads", 1, kMaxHeads);  // splits the width; no parameters of its own
  return s;
}

std::int64_t Linear(ParamMath& m, std::int64_t in, std::int64_t out, bool bias) {
  return m.Add(m.Mul(in, out), bias ? out : 0);
}

// One pre-norm ViT block (CLIPEncoderLayer, SiglipEncoderLayer): layer_norm1, q/k/v/out_proj
// (h × h with bias), layer_norm2, fc1 (h → mlp) and fc2 (mlp → h) with biases.
std::int64_t VitBlock(ParamMath& m, std::int64_t h, std::int64_t mlp) {
  const std::int64_t norms = m.Mul(2, 2, h);
  const std::int64_t attention = m.Mul(4, Linear(m, h, h, true));
  return m.Add(m.Add(norms, attention), m.Add(Linear(m, h, mlp, true), Linear(m, mlp, h, true)));
}

std::int64_t PatchesOf(ParamMath& m, const VitShape& s) {
  const std::int64_t side = s.image / s.patch;
  return m.Mul(side, side);
}

// SigLIP's tower without its pooling head (modeling_siglip.py SiglipVisionTransformer, and the
// SigLIP-derived Idefics3 and MiniCPM-V towers): SiglipVisionEmbeddings (patch_embedding, a
// Conv2d channels → h with bias; position_embedding, one row per patch of the
// (image_size / patch_size)² grid), the encoder and post_layernorm.
std::int64_t SiglipBody(FieldReader& f, ParamMath& m, const VitShape& s) {
  if (s.patch > s.image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t conv = m.Add(m.Mul(s.channels, m.Mul(s.patch, s.patch), s.hidden), s.hidden);
  std::int64_t n = m.Add(conv, m.Mul(PatchesOf(m, s), s.hidden));
  n = m.Add(n, m.Mul(s.layers, VitBlock(m, s.hidden, s.mlp)));
  return m.Add(n, m.Mul(2, s.hidden));  // post_layernorm
}

// SigLIP (modeling_siglip.py): SiglipBody and, with vision_use_head
// (default true), SiglipMultiheadAttentionPoolingHead: a probe (h), nn.MultiheadAttention
// (in_proj 3h × h + 3h, out_proj h × h + h), a LayerNorm and a SiglipMLP. transformers builds the
// head when the key is absent (`head_default` true); Gemma 3 and PaliGemma read the patch
// states, and every checkpoint of theirs says false, so for them absent means no head.
std::int64_t SiglipParams(FieldReader& f, ParamMath& m, bool head_default) {
  // SiglipVisionConfig defaults.
  const VitShape s = ReadVit(f, {768, 3072, 12, 3, 224, 16});
  const bool head = f.Bool("vision_use_head").value_or(head_default);
  std::int64_t n = SiglipBody(f, m, s);
  if (head) {
    const std::int64_t attention =
        m.Add(Linear(m, s.hidden, m.Mul(3, s.hidden), true), Linear(m, s.hidden, s.hidden, true));
    const std::int64_t mlp =
        m.Add(Linear(m, s.hidden, s.mlp, true), Linear(m, s.mlp, s.hidden, true));
    n = m.Add(n, m.Add(m.Add(s.hidden, attention), m.Add(m.Mul(2, s.hidden), mlp)));
  }
  return n;
}

// CLIP's tower (modeling_clip.py CLIPVisionTransformer, and Llama 4's, which has the same
// tensors): the class embedding (h), the patch embedding without bias (CLIP's Conv2d, Llama 4's
// unfold linear), patches + 1 position rows, pre and post LayerNorms and the encoder.
std::int64_t ClipBody(FieldReader& f, ParamMath& m, const VitShape& s) {
  if (s.patch > s.image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t conv = m.Mul(s.channels, m.Mul(s.patch, s.patch), s.hidden);
  std::int64_t n = m.Add(s.hidden, conv);
  n = m.Add(n, m.Mul(m.Add(PatchesOf(m, s), 1), s.hidden));
  n = m.Add(n, m.Mul(2, 2, s.hidden));  // pre and post LayerNorms
  return m.Add(n, m.Mul(s.layers, VitBlock(m, s.hidden, s.mlp)));
}

// CLIP (CLIPVisionConfig defaults). The hub checkpoints store every layer even when the
// projector reads an earlier one (LLaVA's vision_feature_layer −2).
std::int64_t ClipParams(FieldReader& f, ParamMath& m) {
  return ClipBody(f, m, ReadVit(f, {768, 3072, 12, 3, 224, 32}));
}

// Pixtral (modeling_pixtral.py PixtralVisionModel): patch_conv (a Conv2d without bias), ln_pre
// (RMSNorm) and blocks of attention_norm, q/k/v/o without biases (h × h: the heads split h, the
// config's head_dim is not read), a gated MLP without biases (gate/up h → mlp, down mlp → h)
// and ffn_norm. 2-D RoPE: no position table.
std::int64_t PixtralParams(FieldReader& f, ParamMath& m) {
  // PixtralVisionConfig defaults.
  const VitShape s = ReadVit(f, {1024, 4096, 24, 3, 1024, 16});
  const std::int64_t block =
      m.Add(m.Add(m.Mul(4, s.hidden, s.hidden), m.Mul(3, s.hidden, s.mlp)), m.Mul(2, s.hidden));
  return m.Add(m.Add(m.Mul(s.channels, m.Mul(s.patch, s.patch), s.hidden), s.hidden),
               m.Mul(s.layers, block));
}

// Idefics3 / SmolVLM (modeling_idefics3.py Idefics3VisionTransformer): SiglipBody, no pooling
// head.
std::int64_t Idefics3VisionParams(FieldReader& f, ParamMath& m) {
  // Idefics3VisionConfig defaults.
  return SiglipBody(f, m, ReadVit(f, {1152, 3072, 12, 3, 224, 32}));
}

// Llama 4 (modeling_llama4.py Llama4VisionModel): ClipBody (Llama4UnfoldConvolution's linear,
// class_embedding, positional_embedding_vlm, layernorm_pre / layernorm_post, ViT blocks with
// biases), then Llama4VisionPixelShuffleMLP
// (fc1 intermediate_size → projector_input_dim, fc2 → projector_output_dim, no biases) and
// Llama4MultiModalProjector.linear_1 (vision_output_dim → text h, no bias).
std::int64_t Llama4VisionParams(FieldReader& f, ParamMath& m, std::int64_t text_hidden) {
  // Llama4VisionConfig defaults.
  const VitShape s = ReadVit(f, {768, 5632, 34, 3, 448, 14});
  const std::int64_t in = f.Int("projector_input_dim", 1, kMaxWidth).value_or(4096);
  const std::int64_t out = f.Int("projector_output_dim", 1, kMaxWidth).value_or(4096);
  const std::int64_t vision_out = f.Int("vision_output_dim", 1, kMaxWidth).value_or(7680);
  std::int64_t n = ClipBody(f, m, s);
  n = m.Add(n, m.Add(m.Mul(s.mlp, in), m.Mul(in, out)));
  return m.Add(n, m.Mul(vision_out, text_hidden));
}

// The Qwen-VL towers' shared sizes (configuration_qwen2_vl.py / _qwen2_5_vl.py / _qwen3_vl.py):
// a Conv3d patch embedding over temporal_patch_size frames, `depth` blocks and a patch merger
// over spatial_merge_size² neighbouring patches. The Qwen2/2.5-VL files write in_chans, which
// the Config class ignores (in_channels, default 3).
struct QwenVitShape {
  std::int64_t depth = 0, width = 0, channels = 3, patch = 0, temporal = 2, merge = 2;
};
QwenVitShape ReadQwenVit(FieldReader& f, std::string_view width_key, std::int64_t depth,
                         std::int64_t width, std::int64_t patch) {
  QwenVitShape s;
  s.depth = f.Int("depth", 1, kMaxLayers).value_or(depth);
  s.width = f.Int(width_key, 1, kMaxWidth).value_or(width);
  s.channels = f.Int("in_channels", 1, 64).value_or(3);
  f.Int("in_chans", 1, 64);
  s.patch = f.Int("patch_size", 1, kMaxWidth).value_or(patch);
  s.temporal = f.Int("temporal_patch_size", 1, 64).value_or(2);
  s.merge = f.Int("spatial_merge_size", 1, 64).value_or(2);
  f.Int("num_heads", 1, kMaxHeads);  // splits the width; no parameters of its own
  return s;
}
std::int64_t QwenPatchConv(ParamMath& m, const QwenVitShape& s) {
  return m.Mul(m.Mul(s.channels, s.temporal), m.Mul(s.patch, s.patch), s.width);
}
// A PatchMerger's two linears: merged width H = width · merge² → H → out, with biases.
std::int64_t QwenMergerMlp(ParamMath& m, const QwenVitShape& s, std::int64_t out) {
  const std::int64_t merged = m.Mul(s.width, m.Mul(s.merge, s.merge));
  return m.Add(Linear(m, merged, merged, true), Linear(m, merged, out, true));
}

// Qwen2-VL (modeling_qwen2_vl.py Qwen2VisionTransformerPretrainedModel): PatchEmbed (Conv3d,
// no bias), blocks of two LayerNorms, qkv (E → 3E) and proj with biases, an MLP of
// int(E · mlp_ratio) with biases; PatchMerger: ln_q (LayerNorm over E) and its two linears into
// hidden_size (the language model's width).
std::int64_t Qwen2VlVisionParams(FieldReader& f, ParamMath& m) {
  const QwenVitShape s = ReadQwenVit(f, "embed_dim", 32, 1280, 14);
  const double ratio = f.Number("mlp_ratio", 0.01, 1000).value_or(4.0);
  const std::int64_t out = f.Int("hidden_size", 1, kMaxWidth).value_or(3584);
  const auto mlp = static_cast<std::int64_t>(static_cast<double>(s.width) * ratio);
  const std::int64_t e = s.width;
  const std::int64_t block =
      m.Add(m.Add(m.Mul(4, e), m.Add(Linear(m, e, m.Mul(3, e), true), Linear(m, e, e, true))),
            m.Add(Linear(m, e, mlp, true), Linear(m, mlp, e, true)));
  std::int64_t n = m.Add(QwenPatchConv(m, s), m.Mul(s.depth, block));
  return m.Add(n, m.Add(m.Mul(2, e), QwenMergerMlp(m, s, out)));
}

// Qwen2.5-VL (modeling_qwen2_5_vl.py Qwen2_5_VisionTransformerPretrainedModel): as Qwen2-VL
// with RMSNorms and a gated MLP with biases (gate/up E → intermediate_size, down back); the
// merger's ln_q is an RMSNorm and writes out_hidden_size. The class's hidden_size default is
// 3584 (every release writes 1280).
std::int64_t Qwen25VlVisionParams(FieldReader& f, ParamMath& m) {
  const QwenVitShape s = ReadQwenVit(f, "hidden_size", 32, 3584, 14);
  const std::int64_t mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(3420);
  const std::int64_t out = f.Int("out_hidden_size", 1, kMaxWidth).value_or(3584);
  const std::int64_t e = s.width;
  const std::int64_t block =
      m.Add(m.Add(m.Mul(2, e), m.Add(Linear(m, e, m.Mul(3, e), true), Linear(m, e, e, true))),
            m.Add(m.Mul(2, Linear(m, e, mlp, true)), Linear(m, mlp, e, true)));
  std::int64_t n = m.Add(QwenPatchConv(m, s), m.Mul(s.depth, block));
  return m.Add(n, m.Add(e, QwenMergerMlp(m, s, out)));
}

// Qwen3-VL (modeling_qwen3_vl.py Qwen3VLVisionModel; qwen3_vl_moe's tower is the same): the
// Conv3d patch embedding with bias, a learned pos_embed of num_position_embeddings rows,
// LayerNorm blocks with biased qkv/proj and linear_fc1/fc2, the merger (LayerNorm over E) and
// one deepstack merger per deepstack_visual_indexes entry, whose LayerNorm spans the merged
// width. Qwen3.5 / 3.6 (modular_qwen3_5.py Qwen3_5VisionModel) delete the deepstack mergers:
// `deepstack` false.
std::int64_t Qwen3VlVisionParams(FieldReader& f, ParamMath& m, bool deepstack) {
  const QwenVitShape s = ReadQwenVit(f, "hidden_size", 27, 1152, 16);
  const std::int64_t mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(4304);
  const std::int64_t out = f.Int("out_hidden_size", 1, kMaxWidth).value_or(3584);
  const std::int64_t positions = f.Int("num_position_embeddings", 1, kMaxPositions).value_or(2304);
  std::int64_t mergers = 0;
  if (deepstack) {
    mergers = 3;  // Qwen3VLVisionConfig: [8, 16, 24]
    if (const json* list = f.Get("deepstack_visual_indexes"); list != nullptr) {
      if (list->is_array()) {
        mergers = static_cast<std::int64_t>(list->size());
      } else {
        f.Fail("deepstack_visual_indexes", "expected a list of layer indexes");
      }
    }
  }
  const std::int64_t e = s.width;
  const std::int64_t block =
      m.Add(m.Add(m.Mul(4, e), m.Add(Linear(m, e, m.Mul(3, e), true), Linear(m, e, e, true))),
            m.Add(Linear(m, e, mlp, true), Linear(m, mlp, e, true)));
  std::int64_t n = m.Add(m.Add(QwenPatchConv(m, s), e), m.Mul(positions, e));
  n = m.Add(n, m.Mul(s.depth, block));
  n = m.Add(n, m.Add(m.Mul(2, e), QwenMergerMlp(m, s, out)));
  const std::int64_t merged = m.Mul(e, m.Mul(s.merge, s.merge));
  return m.Add(n, m.Mul(mergers, m.Add(m.Mul(2, merged), QwenMergerMlp(m, s, out))));
}

// InternViT (OpenGVLab's modeling_intern_vit.py InternVisionModel, internvl_chat's remote
// code): class_embedding, a Conv2d patch embedding with bias, patches + 1 position rows; blocks
// of two norms (norm_type rms_norm or layer_norm), qkv (E → 3E, bias with qkv_bias), q_norm and
// k_norm (RMSNorm over E, with qk_normalization), proj with bias, the layer scales ls1 / ls2 and
// fc1 / fc2 with biases; no final norm. InternVLChatModel.mlp1: a LayerNorm over E · r² and two
// biased linears (E · r² → text h → text h), r = 1 / downsample_ratio.
std::int64_t InternVitParams(FieldReader& top, FieldReader& f, ParamMath& m,
                             std::int64_t text_hidden) {
  // InternVisionConfig defaults (InternViT-6B).
  const VitShape s = ReadVit(f, {3200, 12800, 48, 3, 224, 14});
  const bool qkv_bias = f.Bool("qkv_bias").value_or(false);
  const bool qk_norm = f.Bool("qk_normalization").value_or(true);
  const std::string norm = f.String("norm_type").value_or("rms_norm");
  if (norm != "rms_norm" && norm != "layer_norm")
    f.Fail("norm_type", "unknown value \"" + norm + "\" (expected rms_norm or layer_norm)");
  const double ratio = top.Number("downsample_ratio", 0.01, 1).value_or(0.5);
  if (s.patch > s.image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t e = s.hidden;
  std::int64_t n = m.Add(m.Add(e, m.Mul(s.channels, m.Mul(s.patch, s.patch), e)), e);
  n = m.Add(n, m.Mul(m.Add(PatchesOf(m, s), 1), e));
  std::int64_t block = m.Mul(norm == "layer_norm" ? 4 : 2, e);
  block = m.Add(block, m.Add(m.Mul(3, e, e), qkv_bias ? m.Mul(3, e) : 0));
  block = m.Add(block, m.Add(qk_norm ? m.Mul(2, e) : 0, Linear(m, e, e, true)));
  block =
      m.Add(block, m.Add(m.Mul(2, e), m.Add(Linear(m, e, s.mlp, true), Linear(m, s.mlp, e, true))));
  n = m.Add(n, m.Mul(s.layers, block));
  const auto r = static_cast<std::int64_t>(1.0 / ratio + 1e-9);
  const std::int64_t merged = m.Mul(e, m.Mul(r, r));
  return m.Add(n, m.Add(m.Mul(2, merged), m.Add(Linear(m, merged, text_hidden, true),
                                                Linear(m, text_hidden, text_hidden, true))));
}

// MoonViT (Kimi-VL's modeling_kimi_vl.py MoonVitPretrainedModel; Kimi-K2.5's
// modeling_kimi_k25.py MoonViT3dPretrainedModel): a patch Conv2d (3 channels, with bias), a
// learned init_pos_emb_height × init_pos_emb_width × E position table (K2.5's time table is a
// fixed sin-cos buffer), blocks with biased wqkv / wo / fc0 / fc1 and two LayerNorms, a final
// LayerNorm; then the patch merger: a LayerNorm over the projector width M, M · kh · kw → same
// and → text h, both with bias (merge_kernel_size kh × kw). Kimi-K2.5 names its sizes vt_*, its
// projector width mm_hidden_size and the text width text_hidden_size.
std::int64_t MoonVitParams(FieldReader& f, ParamMath& m, bool k25, std::int64_t text_hidden) {
  const char* hidden_key = k25 ? "vt_hidden_size" : "hidden_size";
  const std::int64_t e = f.Int(hidden_key, 1, kMaxWidth).value_or(1152);
  const std::int64_t mlp =
      f.Int(k25 ? "vt_intermediate_size" : "intermediate_size", 1, kMaxWidth).value_or(4304);
  const std::int64_t layers =
      f.Int(k25 ? "vt_num_hidden_layers" : "num_hidden_layers", 1, kMaxLayers).value_or(27);
  const std::int64_t patch = f.Int("patch_size", 1, kMaxWidth).value_or(14);
  const std::int64_t rows = f.Int("init_pos_emb_height", 1, kMaxWidth).value_or(64);
  const std::int64_t cols = f.Int("init_pos_emb_width", 1, kMaxWidth).value_or(64);
  std::int64_t kernel = 4;  // merge_kernel_size [2, 2]
  if (const json* k = f.Get("merge_kernel_size")) {
    if (k->is_array() && k->size() == 2 && (*k)[0].is_number_integer() &&
        (*k)[1].is_number_integer() && (*k)[0].get<std::int64_t>() > 0 &&
        (*k)[0].get<std::int64_t>() <= 64 && (*k)[1].get<std::int64_t>() > 0 &&
        (*k)[1].get<std::int64_t>() <= 64) {
      kernel = (*k)[0].get<std::int64_t>() * (*k)[1].get<std::int64_t>();
    } else {
      f.Fail("merge_kernel_size", "expected two whole numbers from 1 to 64");
    }
  }
  const std::int64_t width = k25 ? f.Int("mm_hidden_size", 1, kMaxWidth).value_or(e) : e;
  const std::int64_t out =
      k25 ? f.Int("text_hidden_size", 1, kMaxWidth).value_or(text_hidden) : text_hidden;
  std::int64_t n = m.Add(m.Add(m.Mul(3, m.Mul(patch, patch), e), e), m.Mul(rows, cols, e));
  n = m.Add(n, m.Mul(layers, VitBlock(m, e, mlp)));
  n = m.Add(n, m.Mul(2, e));
  const std::int64_t merged = m.Mul(width, kernel);
  return m.Add(n, m.Add(m.Mul(2, width),
                        m.Add(Linear(m, merged, merged, true), Linear(m, merged, out, true))));
}

// GLM-4.1V / 4.5V / 4.6V (modeling_glm4v.py Glm4vVisionModel; glm4v_moe's tower is the same):
// a Conv3d patch embedding with bias, post_conv_layernorm (RMSNorm), a learned position table of
// (image_size / patch_size)² rows, blocks of two RMSNorms, qkv (bias per attention_bias), proj
// without bias and a gated MLP out_hidden_size wide without biases, post_layernorm, the
// downsample Conv2d (E → out, spatial_merge_size², with bias) and the merger: proj out × out,
// a LayerNorm and a gated MLP of intermediate_size, no biases.
std::int64_t Glm4vVisionParams(FieldReader& f, ParamMath& m) {
  const QwenVitShape s = ReadQwenVit(f, "hidden_size", 24, 1536, 14);
  const std::int64_t out = f.Int("out_hidden_size", 1, kMaxWidth).value_or(4096);
  const std::int64_t mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(13696);
  const std::int64_t image = ImageSide(f, 336);
  const bool qkv_bias = f.Bool("attention_bias").value_or(false);
  if (s.patch > image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t e = s.width;
  const std::int64_t side = image / s.patch;
  std::int64_t n = m.Add(m.Add(QwenPatchConv(m, s), e), m.Add(e, m.Mul(side, side, e)));
  const std::int64_t block = m.Add(m.Add(m.Mul(2, e), Linear(m, e, m.Mul(3, e), qkv_bias)),
                                   m.Add(m.Mul(e, e), m.Mul(3, e, out)));
  n = m.Add(n, m.Add(m.Mul(s.depth, block), e));
  n = m.Add(n, m.Add(m.Mul(m.Mul(e, out), m.Mul(s.merge, s.merge)), out));
  return m.Add(n, m.Add(m.Add(m.Mul(out, out), m.Mul(2, out)), m.Mul(3, out, mlp)));
}

// ERNIE-4.5-VL (modular_ernie4_5_vl_moe.py): the DFNRope ViT, Qwen2-VL's blocks (LayerNorms,
// biased qkv / proj / fc1 / fc2 of embed_dim · mlp_ratio or intermediate_size) behind a patch
// linear without bias and before a final LayerNorm, no merger; then
// Ernie4_5_VLMoeVariableResolutionResamplerModel over sd = pixel_hidden_size · m² (m =
// spatial_conv_size): spatial_linear (sd → sd → sd with biases, a LayerNorm), temporal_linear
// (sd · temporal_conv_size → sd → sd, a LayerNorm; with use_temporal_conv, always in the
// transformers port), mlp (sd → text h, bias) and after_norm (RMSNorm, text h). The PT config
// keeps the resampler's fields at the top, transformers' port in vision_config.
std::int64_t ErnieVlVisionParams(FieldReader& top, FieldReader& f, ParamMath& m,
                                 std::int64_t text_hidden) {
  const std::string width_key = f.FirstPresent({"embed_dim", "hidden_size"});
  const std::int64_t e = width_key.empty() ? 1280 : f.Int(width_key, 1, kMaxWidth).value_or(1280);
  const std::int64_t depth = f.Int("depth", 1, kMaxLayers).value_or(32);
  const std::int64_t channels = f.Int("in_channels", 1, 64).value_or(3);
  const std::int64_t patch = f.Int("patch_size", 1, kMaxWidth).value_or(14);
  std::int64_t mlp = 0;
  if (f.Has("intermediate_size")) {
    mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(4 * e);
  } else {
    mlp = static_cast<std::int64_t>(static_cast<double>(e) *
                                    f.Number("mlp_ratio", 0.01, 1000).value_or(4.0));
  }
  const std::int64_t merge = top.Has("spatial_conv_size")
                                 ? top.Int("spatial_conv_size", 1, 64).value_or(2)
                                 : f.Int("spatial_merge_size", 1, 64).value_or(2);
  const std::int64_t frames = top.Has("temporal_conv_size")
                                  ? top.Int("temporal_conv_size", 1, 64).value_or(2)
                                  : f.Int("temporal_merge_size", 1, 64).value_or(2);
  const bool temporal = top.Bool("use_temporal_conv").value_or(true);
  const std::int64_t pixels = top.Int("pixel_hidden_size", 1, kMaxWidth).value_or(e);
  const std::int64_t block =
      m.Add(m.Add(m.Mul(4, e), m.Add(Linear(m, e, m.Mul(3, e), true), Linear(m, e, e, true))),
            m.Add(Linear(m, e, mlp, true), Linear(m, mlp, e, true)));
  std::int64_t n = m.Add(m.Mul(channels, m.Mul(patch, patch), e), m.Mul(depth, block));
  n = m.Add(n, m.Mul(2, e));
  const std::int64_t sd = m.Mul(pixels, m.Mul(merge, merge));
  n = m.Add(n, m.Add(m.Mul(2, Linear(m, sd, sd, true)), m.Mul(2, sd)));
  if (temporal) {
    n = m.Add(n, m.Add(m.Add(Linear(m, m.Mul(sd, frames), sd, true), Linear(m, sd, sd, true)),
                       m.Mul(2, sd)));
  }
  return m.Add(n, m.Add(Linear(m, sd, text_hidden, true), text_hidden));
}

// DeepSeek-VL2 (deepseek-ai/DeepSeek-VL2 siglip_vit.py VisionTransformer, timm blocks): a patch
// Conv2d with bias, (image_size / patch_size)² position rows (+ a class token with
// class_token), `layers` blocks (LayerNorms, qkv and proj with biases, an MLP of
// width · mlp_ratio), a final LayerNorm and, with global_pool "map", timm's AttentionPoolLatent
// (latent, q, kv, proj, a LayerNorm and an MLP), built even when the head is ignored; then
// modeling_deepseek_vl_v2.py MlpProjector (projector_config: downsample_mlp_gelu / mlp_gelu /
// linear into n_embed) and, with tile_tag "2D", image_newline and view_seperator (n_embed each).
std::int64_t DeepseekVl2VisionParams(FieldReader& top, FieldReader& f, ParamMath& m,
                                     std::int64_t text_hidden) {
  const std::int64_t e = f.Int("width", 1, kMaxWidth).value_or(1024);
  const std::int64_t layers = f.Int("layers", 1, kMaxLayers).value_or(24);
  const std::int64_t patch = f.Int("patch_size", 1, kMaxWidth).value_or(16);
  const std::int64_t image = ImageSide(f, 384);
  const auto mlp = static_cast<std::int64_t>(static_cast<double>(e) *
                                             f.Number("mlp_ratio", 0.01, 1000).value_or(4.0));
  const bool cls = f.Bool("class_token").value_or(false);
  const std::string pool = f.String("global_pool").value_or("map");
  if (patch > image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t side = image / patch;
  std::int64_t n = m.Add(m.Mul(3, m.Mul(patch, patch), e), e);
  n = m.Add(n, m.Mul(m.Add(m.Mul(side, side), cls ? 1 : 0), e));
  if (cls) n = m.Add(n, e);
  n = m.Add(n, m.Mul(layers, VitBlock(m, e, mlp)));
  n = m.Add(n, m.Mul(2, e));
  if (pool == "map") {
    const std::int64_t attention =
        m.Add(m.Add(Linear(m, e, e, true), Linear(m, e, m.Mul(2, e), true)), Linear(m, e, e, true));
    n = m.Add(n, m.Add(m.Add(e, attention), m.Add(m.Mul(2, e), m.Add(Linear(m, e, mlp, true),
                                                                     Linear(m, mlp, e, true)))));
  }
  const json* projector = top.Get("projector_config");
  std::vector<Error> unused;
  FieldReader p(projector, top.Path("projector_config"), unused, FieldReader::Null::kAbsent);
  const std::string type = p.String("projector_type").value_or("downsample_mlp_gelu");
  const std::int64_t in = p.Int("input_dim", 1, kMaxWidth).value_or(1152);
  const std::int64_t out = p.Int("n_embed", 1, kMaxWidth).value_or(text_hidden);
  const std::int64_t depth = p.Int("depth", 1, 64).value_or(2);
  const std::int64_t ratio = p.Int("mlp_ratio", 1, 64).value_or(1);
  const std::int64_t down = p.Int("downsample_ratio", 1, 64).value_or(2);
  if (type == "downsample_mlp_gelu") {
    const std::int64_t wide = m.Mul(out, ratio);
    n = m.Add(n, Linear(m, m.Mul(in, m.Mul(down, down)), wide, true));
    n = m.Add(n, m.Mul(std::max<std::int64_t>(depth - 2, 0), Linear(m, wide, wide, true)));
    n = m.Add(n, Linear(m, wide, out, true));
  } else if (type == "mlp_gelu") {
    n = m.Add(n, m.Add(Linear(m, in, out, true), m.Mul(depth - 1, Linear(m, out, out, true))));
  } else if (type == "linear") {
    n = m.Add(n, Linear(m, in, out, true));
  } else {
    top.Fail("projector_config.projector_type", "unknown value \"" + type + "\"");
  }
  if (p.Bool("token_pooling").value_or(false)) n = m.Add(n, Linear(m, m.Mul(4, in), in, true));
  const std::string tile = top.String("tile_tag").value_or("2D");
  if (tile == "2D") n = m.Add(n, m.Mul(2, out));
  return n;
}

// MiniCPM-V 2.6 (openbmb remote code: modeling_navit_siglip.py, resampler.py): a SigLIP tower
// without head (drop_vision_last_layer removes the last block) and the Resampler: query_num
// learned queries (text h wide), kv_proj (vision h → text h, no bias, when the widths differ),
// nn.MultiheadAttention over text h, ln_q / ln_kv / ln_post and proj (text h × text h). Its 2-D
// position table is a non-persistent buffer.
std::int64_t MiniCpmVParams(FieldReader& top, FieldReader& f, ParamMath& m,
                            std::int64_t text_hidden) {
  VitShape s = ReadVit(f, {1152, 4304, 27, 3, 980, 14});
  if (top.Bool("drop_vision_last_layer").value_or(false) && s.layers > 1) --s.layers;
  std::int64_t n = SiglipBody(f, m, s);
  const std::int64_t d = text_hidden;
  const std::int64_t queries = top.Int("query_num", 1, kMaxPositions).value_or(64);
  n = m.Add(n, m.Mul(queries, d));
  if (s.hidden != d) n = m.Add(n, m.Mul(s.hidden, d));
  n = m.Add(n, m.Add(Linear(m, d, m.Mul(3, d), true), Linear(m, d, d, true)));
  return m.Add(n, m.Add(m.Mul(6, d), m.Mul(d, d)));
}

// Gemma 4 (modeling_gemma4.py Gemma4VisionModel): blocks of q/k/v/o without bias (heads ·
// head_dim wide; q_norm and k_norm over head_dim, v_norm without weight), a gated MLP without
// bias and four RMSNorms; Gemma4VisionPatchEmbedder's input_proj (3 · patch² → h) and a (2,
// position_embedding_size, h) position table; with `standardize` the std_bias / std_scale
// buffers (h each, stored in the checkpoint as the text blocks' layer_scalar is); then
// Gemma4MultimodalEmbedder's embedding_projection (h → text h, its norm without weight). With
// use_clipped_linears each linear also stores four clip bounds, but as 0-dimensional tensors,
// which the hub's safetensors total counts as none: google/gemma-4-E2B-it's tensor dump holds
// 928 of them (448 vision, 480 audio) and its published total, 5,123,178,051, is the dump's
// element count without them.
std::int64_t Gemma4VisionParams(FieldReader& f, ParamMath& m, std::int64_t text_hidden) {
  const std::int64_t h = f.Int("hidden_size", 1, kMaxWidth).value_or(768);
  const std::int64_t mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(3072);
  const std::int64_t layers = f.Int("num_hidden_layers", 1, kMaxLayers).value_or(16);
  const std::int64_t heads = f.Int("num_attention_heads", 1, kMaxHeads).value_or(12);
  const std::int64_t kv_heads = f.Int("num_key_value_heads", 1, kMaxHeads).value_or(heads);
  const std::int64_t head_dim = f.Int("head_dim", 1, kMaxWidth).value_or(64);
  const std::int64_t patch = f.Int("patch_size", 1, kMaxWidth).value_or(16);
  const std::int64_t positions = f.Int("position_embedding_size", 1, kMaxPositions).value_or(10240);
  const bool standardize = f.Bool("standardize").value_or(false);
  f.Bool("use_clipped_linears");  // 0-dimensional bounds: none in the hub's count
  const std::int64_t attention =
      m.Add(m.Mul(m.Mul(h, head_dim), m.Mul(2, m.Add(heads, kv_heads))), m.Mul(2, head_dim));
  const std::int64_t block = m.Add(attention, m.Add(m.Mul(3, h, mlp), m.Mul(4, h)));
  std::int64_t n = m.Mul(layers, block);
  n = m.Add(n, m.Add(m.Mul(3, m.Mul(patch, patch), h), m.Mul(2, positions, h)));
  if (standardize) n = m.Add(n, m.Mul(2, h));
  return m.Add(n, m.Mul(h, text_hidden));
}

// The conformer audio encoder Gemma 3n and Gemma 4 share tensor for tensor: a subsampling
// stage of two 3 × 3 convolutions (1 → c0 → c1 channels, no bias, a norm of each one's channels)
// and a projection of the c1 × `bins` frequency features left after them to h, then `layers`
// blocks of 24h² + 9h + k·h + h / heads (two macaron feed-forwards h → 4h → h with two norms
// each, attention's q, k, v, post and relative-position projections with per_dim_scale, the
// light convolution's linear_start h → 2h, depthwise kernel k, linear_end and two norms, the
// block's norms).
struct ConformerShape {
  std::int64_t h, layers, heads, kernel, c0, c1, bins;
};
std::int64_t ConformerEncoderParams(ParamMath& m, const ConformerShape& s) {
  std::int64_t n = m.Add(m.Add(m.Mul(9, s.c0), s.c0), m.Add(m.Mul(9, s.c0, s.c1), s.c1));
  n = m.Add(n, m.Mul(m.Mul(s.c1, s.bins), s.h));
  const std::int64_t layer =
      m.Add(m.Add(m.Mul(24, s.h, s.h), m.Mul(9, s.h)), m.Add(m.Mul(s.kernel, s.h), s.h / s.heads));
  return m.Add(n, m.Mul(s.layers, layer));
}

// Gemma 4 E2B / E4B's audio tower (modeling_gemma4.py Gemma4AudioModel, audio_config) and its
// embedder: Gemma4AudioSubSampleConvProjection (two 3 × 3 convolutions from 1 to channels[0]
// and channels[0] to channels[1], each with a LayerNorm without bias, then input_proj_linear
// from the 128 mel bins / 4 × channels[1] to h); per conformer layer (24h² + 9h + k·h + h /
// heads): two macaron feed-forwards (h → 4h → h, two norms each: 2 · (8h² + 2h)), attention (q,
// k, v, post 4h², relative_k_proj h², per_dim_scale h / heads), the light convolution
// (linear_start h → 2h, depthwise kernel k, linear_end h², two norms) and three norms; then
// output_proj (h → output_proj_dims, with bias) and embed_audio's embedding_projection
// (output_proj_dims → text h). No linear has a bias; the clip bounds are 0-dimensional (see
// Gemma4VisionParams). E2B's dump: the tower 304,825,088 with its 480 bounds (304,824,608
// without), the embedder 2,359,296.
std::int64_t Gemma4AudioParams(FieldReader& f, ParamMath& m, std::int64_t text_hidden) {
  const std::int64_t h = f.Int("hidden_size", 1, kMaxWidth).value_or(1024);
  const std::int64_t layers = f.Int("num_hidden_layers", 1, kMaxLayers).value_or(12);
  const std::int64_t heads = f.Int("num_attention_heads", 1, kMaxHeads).value_or(8);
  const std::int64_t kernel = f.Int("conv_kernel_size", 1, kMaxWidth).value_or(5);
  const std::int64_t out = f.Int("output_proj_dims", 1, kMaxWidth).value_or(1536);
  const std::vector<std::int64_t> channels =
      f.IntList("subsampling_conv_channels", 1, kMaxWidth).value_or(std::vector<std::int64_t>{});
  const std::int64_t c0 = channels.size() == 2 ? channels[0] : 128;
  const std::int64_t c1 = channels.size() == 2 ? channels[1] : 32;
  f.Bool("use_clipped_linears");
  std::int64_t n = ConformerEncoderParams(m, {h, layers, heads, kernel, c0, c1, 128 / 4});
  n = m.Add(n, Linear(m, h, out, true));
  return m.Add(n, m.Mul(out, text_hidden));
}

// Gemma 3n's audio encoder (modeling_gemma3n.py Gemma3nAudioEncoder, audio_config): the
// subsampling stage (two Conv2d without bias, 1 → sscp_conv_channel_size[0] → [1], 3 × 3 stride 2
// padded to keep (f + 2 − 3) / 2 + 1 frequency bins, each with a cumulative group norm of its
// channels; input_proj_linear from channels[1] × the bins left of input_feat_size to h) and
// conf_num_hidden_layers conformer blocks of 24h² + 9h + k·h + h / heads (the same terms as
// Gemma 4's: two feed-forwards, attention with pos_proj and per_dim_scale, the light
// convolution, the block norm). Defaults are the released E2B / E4B: 681,348,640.
std::int64_t Gemma3nAudioParams(FieldReader& f, ParamMath& m) {
  const std::int64_t h = f.Int("hidden_size", 1, kMaxWidth).value_or(1536);
  const std::int64_t layers = f.Int("conf_num_hidden_layers", 1, kMaxLayers).value_or(12);
  const std::int64_t heads = f.Int("conf_num_attention_heads", 1, kMaxHeads).value_or(8);
  const std::int64_t kernel = f.Int("conf_conv_kernel_size", 1, kMaxWidth).value_or(5);
  std::int64_t bins = f.Int("input_feat_size", 1, kMaxWidth).value_or(128);
  const std::vector<std::int64_t> channels =
      f.IntList("sscp_conv_channel_size", 1, kMaxWidth).value_or(std::vector<std::int64_t>{});
  const std::int64_t c0 = channels.size() == 2 ? channels[0] : 128;
  const std::int64_t c1 = channels.size() == 2 ? channels[1] : 32;
  for (int conv = 0; conv < 2; ++conv) bins = (bins + 2 - 3) / 2 + 1;
  return ConformerEncoderParams(m, {h, layers, heads, kernel, c0, c1, bins});
}

// Gemma3nMultimodalEmbedder: its own embedding table (vocab_size × the tower's h), the hard
// and soft embedding norms (h each) and embedding_projection (h → text h); the norm after the
// projection has no weight.
std::int64_t Gemma3nEmbedderParams(FieldReader& f, ParamMath& m, std::int64_t default_hidden,
                                   std::int64_t text_hidden) {
  const std::int64_t h = f.Int("hidden_size", 1, kMaxWidth).value_or(default_hidden);
  const std::int64_t vocab = f.Int("vocab_size", 1, kMaxVocab).value_or(128);
  return m.Add(m.Mul(m.Add(vocab, 2), h), m.Mul(h, text_hidden));
}

// Gemma 4 E2B / E4B and Gemma 3n also store an audio tower, counted with the vision tower:
// training.vision_tower (not loaded / frozen / trained) applies to both, as LLaMA-Factory's
// freeze_vision_tower does (model_utils/visual.py registers gemma3n and gemma4 with
// vision_model_keys vision_tower and audio_tower).
std::string AudioNote(std::int64_t audio_params) {
  return "the tower count includes the audio tower (a conformer) and its embedder, " +
         detail::WithThousands(audio_params) + " parameters; training.vision_tower applies to both";
}

// Gemma 3n's vision tower is timm's MobileNet-V5 named by vision_config.architecture; the
// config holds no sizes, so a known architecture is a known count. mobilenetv5_300m_enc
// (timm/models/mobilenetv5.py _gen_mobilenet_v5 and its 84-block arch_def, RmsNorm2d with
// weight only, bias-free convolutions but the stem's): stem 1,856; stage 0, 3 EdgeResidual
// blocks to 128 channels, 1,492,608; stage 1, 5 UniversalInvertedResidual to 256, 2,439,168;
// stage 2, 9 UIR + 14 × (MobileAttention, 12 heads × 64, keys and values strided by 2, + UIR
// e2) to 640, 63,407,744; stage 3, 1 UIR + 19 × (MobileAttention 16 × 96 + UIR e2) to 1,280,
// 211,540,480; the multi-scale fusion adapter (UIR 1,920 → 2,048 and its norm) 15,245,056.
// With the audio tower and both embedders it closes Gemma 3n E2B's and E4B's published totals
// (5,439,438,272 and 7,849,978,192) to the unit.
std::int64_t MobileNetV5Params(const std::string& architecture) {
  if (architecture == "mobilenetv5_300m_enc") return 294126912;
  return 0;
}

// Llama 3.2 Vision (modeling_mllama.py MllamaVisionModel): patch_embedding (a Conv2d without
// bias), class_embedding, the gated position embedding (P = (image_size / patch)² + 1 rows, a
// tile table of (aspect ratios + 1) × max_num_tiles · P · h and its gate), pre- and post-tile
// embeddings ((aspect ratios + 1) × max_num_tiles · h and a gate each), layernorm_pre /
// layernorm_post, num_hidden_layers blocks (q/k/v/o without bias, fc1 / fc2 with bias, two
// LayerNorms) and num_global_layers more with gate_attn and gate_ffn; then
// multi_modal_projector, vision_output_dim → text h with bias.
std::int64_t MllamaVisionParams(FieldReader& f, ParamMath& m, std::int64_t text_hidden) {
  const std::int64_t h = f.Int("hidden_size", 1, kMaxWidth).value_or(1280);
  const std::int64_t mlp = f.Int("intermediate_size", 1, kMaxWidth).value_or(5120);
  const std::int64_t layers = f.Int("num_hidden_layers", 1, kMaxLayers).value_or(32);
  const std::int64_t global = f.Int("num_global_layers", 0, kMaxLayers).value_or(8);
  const std::int64_t channels = f.Int("num_channels", 1, 64).value_or(3);
  const std::int64_t patch = f.Int("patch_size", 1, kMaxWidth).value_or(14);
  const std::int64_t image = ImageSide(f, 448);
  const std::int64_t tiles = f.Int("max_num_tiles", 1, 1024).value_or(4);
  const std::int64_t out = f.Int("vision_output_dim", 1, kMaxWidth).value_or(7680);
  std::int64_t ratios = 8;  // MllamaVisionConfig's eight supported_aspect_ratios
  if (const json* list = f.Get("supported_aspect_ratios")) {
    if (list->is_array()) {
      ratios = static_cast<std::int64_t>(list->size());
    } else {
      f.Fail("supported_aspect_ratios", "expected a list of [width, height] pairs");
    }
  }
  f.FirstPresent({"attention_heads", "num_attention_heads"});  // they split h: no parameters
  if (patch > image) f.Fail("patch_size", "is larger than image_size");
  const std::int64_t side = image / patch;
  const std::int64_t positions = m.Add(m.Mul(side, side), 1);
  const std::int64_t rows = m.Add(ratios, 1);
  std::int64_t n = m.Add(m.Mul(m.Mul(channels, patch, patch), h), h);
  n = m.Add(n, m.Add(m.Mul(positions, h), m.Add(m.Mul(rows, m.Mul(tiles, positions, h)), 1)));
  n = m.Add(n, m.Mul(2, m.Add(m.Mul(rows, m.Mul(tiles, h)), 1)));
  n = m.Add(n, m.Mul(4, h));
  const std::int64_t block = m.Add(m.Add(m.Mul(4, h, h), m.Mul(4, h)),
                                   m.Add(Linear(m, h, mlp, true), Linear(m, mlp, h, true)));
  n = m.Add(n, m.Add(m.Mul(layers, block), m.Mul(global, m.Add(block, 2))));
  return m.Add(n, Linear(m, out, text_hidden, true));
}

// The width a ViT hands to the projector: its hidden_size (the tower's default when absent).
std::int64_t VitWidth(FieldReader& f, std::int64_t default_width) {
  return f.Int("hidden_size", 1, kMaxWidth).value_or(default_width);
}

// LLaVA's projector (modeling_llava.py LlavaMultiModalProjector) and Mistral 3's
// (modular_mistral3.py Mistral3MultiModalProjector): linear_1 (vision width · the number of
// feature layers → text h) and linear_2 (text h → text h), with biases per
// multimodal_projector_bias (`bias_default`: LLaVA true, Mistral 3 false).
std::int64_t TwoLinearProjector(FieldReader& top, ParamMath& m, std::int64_t width,
                                std::int64_t text_hidden, bool bias_default) {
  std::int64_t feature_layers = 1;
  if (const json* layer = top.Get("vision_feature_layer"); layer != nullptr && layer->is_array())
    feature_layers = static_cast<std::int64_t>(layer->size());
  const bool bias = top.Bool("multimodal_projector_bias").value_or(bias_default);
  return m.Add(Linear(m, m.Mul(width, feature_layers), text_hidden, bias),
               Linear(m, text_hidden, text_hidden, bias));
}

}  // namespace

const json* TowerConfigOf(const json& config, std::string* key) {
  if (!config.is_object()) return nullptr;
  for (const char* name : {"vision_config", "img_processor"}) {
    const auto it = config.find(name);
    if (it == config.end() || it->is_null()) continue;
    // Phi-3-vision's img_processor; another model's key of that name describes no tower here.
    if (std::string_view(name) == "img_processor" && config.value("model_type", json()) != "phi3_v")
      continue;
    if (key != nullptr) *key = name;
    return &*it;
  }
  return nullptr;
}

VisionTower CountVisionTower(const json& config, std::int64_t text_hidden,
                             const std::string& path) {
  VisionTower out;
  std::string key;
  const json* vision = TowerConfigOf(config, &key);
  if (vision == nullptr) return out;
  std::vector<Error> errors;
  FieldReader top(&config, path, errors, FieldReader::Null::kAbsent);
  FieldReader v(vision, top.Path(key), errors, FieldReader::Null::kAbsent);
  const std::string model_type = top.String("model_type").value_or("");
  std::string tower = v.String("model_type").value_or("");
  ParamMath m;
  std::int64_t n = 0;
  if (model_type == "gemma3" || model_type == "paligemma") {
    // Gemma3ForConditionalGeneration (modeling_gemma3.py): a SigLIP tower (its files say
    // vision_use_head false) and Gemma3MultiModalProjector: mm_input_projection_weight (vision
    // h × text h) and mm_soft_emb_norm, an RMSNorm over the vision width (the average pool has
    // no weights). PaliGemma (modeling_paligemma.py PaliGemmaMultiModalProjector): one linear
    // with bias, vision h → projection_dim (default 2048).
    if (!tower.empty() && tower != "siglip_vision_model") return out;
    n = SiglipParams(v, m, false);
    const std::int64_t width = VitWidth(v, 768);
    if (model_type == "gemma3") {
      n = m.Add(n, m.Add(m.Mul(width, text_hidden), width));
    } else {
      const std::int64_t projection = v.Int("projection_dim", 1, kMaxWidth).value_or(2048);
      n = m.Add(n, Linear(m, width, projection, true));
    }
    out.name = "SigLIP";
  } else if (model_type == "mllama") {
    n = MllamaVisionParams(v, m, text_hidden);
    out.name = "Llama 3.2 Vision ViT";
    out.note =
        "Llama 3.2 Vision: the cross-attention layers are counted as the self-attention layers "
        "they replace; their q/k norms and gates and the table's 8 extra rows (tens of "
        "thousands of parameters) are not";
  } else if (model_type == "gemma4") {
    if (!tower.empty() && tower != "gemma4_vision") return out;
    n = Gemma4VisionParams(v, m, text_hidden);
    out.name = "Gemma 4 ViT";
    // E2B / E4B: an audio tower beside it (26B-A4B and 31B write audio_config null).
    if (const json* audio = top.Get("audio_config"); audio != nullptr && audio->is_object()) {
      FieldReader a(audio, top.Path("audio_config"), errors, FieldReader::Null::kAbsent);
      const std::int64_t audio_params = Gemma4AudioParams(a, m, text_hidden);
      n = m.Add(n, audio_params);
      out.note = AudioNote(audio_params);
    }
  } else if (model_type == "gemma3n") {
    // Gemma3nModel: vision_tower (timm MobileNet-V5) and embed_vision, audio_tower and
    // embed_audio.
    const std::string architecture = v.String("architecture").value_or("mobilenetv5_300m_enc");
    const std::int64_t mobilenet = MobileNetV5Params(architecture);
    if (mobilenet == 0) {
      out.unread = "vision_config.architecture " + architecture +
                   " is a timm model whose size trainmem does not know";
      return out;
    }
    n = m.Add(mobilenet, Gemma3nEmbedderParams(v, m, 2048, text_hidden));
    out.name = "MobileNet-V5";
    if (const json* audio = top.Get("audio_config"); audio != nullptr && audio->is_object()) {
      FieldReader a(audio, top.Path("audio_config"), errors, FieldReader::Null::kAbsent);
      const std::int64_t audio_params =
          m.Add(Gemma3nAudioParams(a, m), Gemma3nEmbedderParams(a, m, 1536, text_hidden));
      n = m.Add(n, audio_params);
      out.note = AudioNote(audio_params);
    }
  } else if (model_type == "llava" || model_type == "llava_next") {
    // LlavaForConditionalGeneration / LlavaNextForConditionalGeneration: a CLIP (default),
    // SigLIP or Pixtral tower and the two-linear projector; LLaVA-NeXT adds image_newline
    // (text h).
    if (tower.empty()) tower = "clip_vision_model";
    if (tower == "clip_vision_model") {
      n = ClipParams(v, m);
      out.name = "CLIP ViT";
    } else if (tower == "siglip_vision_model") {
      n = SiglipParams(v, m, true);
      out.name = "SigLIP";
    } else if (tower == "pixtral") {
      n = PixtralParams(v, m);
      out.name = "Pixtral";
    } else {
      return out;
    }
    n = m.Add(n, TwoLinearProjector(top, m, VitWidth(v, tower == "clip_vision_model" ? 768 : 1024),
                                    text_hidden, true));
    if (model_type == "llava_next") n = m.Add(n, text_hidden);
  } else if (model_type == "llava_onevision") {
    // LlavaOnevisionForConditionalGeneration: a SigLIP tower, the two-linear projector and
    // image_newline (text h).
    if (!tower.empty() && tower != "siglip_vision_model") return out;
    n = SiglipParams(v, m, true);
    n = m.Add(n, TwoLinearProjector(top, m, VitWidth(v, 768), text_hidden, true));
    n = m.Add(n, text_hidden);
    out.name = "SigLIP";
  } else if (model_type == "aya_vision") {
    // AyaVisionMultiModalProjector (modular_aya_vision.py): a LayerNorm over the
    // downsample_factor² pixel-shuffled width, linear_1 into alignment_intermediate_size (default
    // text h) and, after the SwiGLU halves it, linear_2 into text h, both with bias.
    if (!tower.empty() && tower != "siglip_vision_model") return out;
    n = SiglipParams(v, m, true);
    const std::int64_t factor = top.Int("downsample_factor", 1, 64).value_or(2);
    const std::int64_t shuffled = m.Mul(VitWidth(v, 768), m.Mul(factor, factor));
    const std::int64_t align =
        top.Int("alignment_intermediate_size", 2, kMaxWidth).value_or(text_hidden);
    n = m.Add(n, m.Add(m.Mul(2, shuffled), Linear(m, shuffled, align, true)));
    n = m.Add(n, Linear(m, align / 2, text_hidden, true));
    out.name = "SigLIP";
  } else if (model_type == "deepseek_vl_v2") {
    n = DeepseekVl2VisionParams(top, v, m, text_hidden);
    out.name = "SigLIP";
  } else if (model_type == "minicpmv") {
    n = MiniCpmVParams(top, v, m, text_hidden);
    out.name = "SigLIP";
  } else if (model_type == "phi3_v") {
    // Phi-3 / 3.5-vision (remote image_embedding_phi3_v.py Phi3ImageEmbedding): the CLIP ViT-L/14
    // at 336 px its code hard-codes (every layer and post_layernorm stored), glb_GN and sub_GN
    // (4 · image_dim_out each, with_learnable_separator) and img_projection: with
    // use_hd_transform 4 · image_dim_out → text h (+ text h → text h for projection_cls "mlp"),
    // else image_dim_out → text h. `vision` is img_processor; embd_layer sits at the top.
    const json clip_large = {{"hidden_size", 1024},
                             {"intermediate_size", 4096},
                             {"num_hidden_layers", 24},
                             {"image_size", 336},
                             {"patch_size", 14}};
    std::vector<Error> fixed;
    FieldReader large(&clip_large, "", fixed);
    n = ClipParams(large, m);
    const std::int64_t width = v.Int("image_dim_out", 1, kMaxWidth).value_or(1024);
    const json* layer = top.Get("embd_layer");
    FieldReader e(layer, top.Path("embd_layer"), errors, FieldReader::Null::kAbsent);
    const bool hd = e.Bool("use_hd_transform").value_or(false);
    const bool separators = e.Bool("with_learnable_separator").value_or(false);
    const std::string projection = e.String("projection_cls").value_or("linear");
    if (separators) n = m.Add(n, m.Mul(8, width));
    const std::int64_t in = hd ? m.Mul(4, width) : width;
    n = m.Add(n, Linear(m, in, text_hidden, true));
    if (projection == "mlp") n = m.Add(n, Linear(m, text_hidden, text_hidden, true));
    out.name = "CLIP ViT";
  } else if (model_type == "mistral3") {
    // Mistral3ForConditionalGeneration: Pixtral and Mistral3MultiModalProjector: norm (RMSNorm,
    // vision h), patch_merger.merging_layer (vision h · spatial_merge_size² → vision h, no bias)
    // and the two linears (no biases by default).
    if (!tower.empty() && tower != "pixtral") return out;
    n = PixtralParams(v, m);
    const std::int64_t width = VitWidth(v, 1024);
    const std::int64_t merge = top.Int("spatial_merge_size", 1, 64).value_or(2);
    n = m.Add(n, m.Add(width, m.Mul(m.Mul(width, merge, merge), width)));
    n = m.Add(n, TwoLinearProjector(top, m, width, text_hidden, false));
    out.name = "Pixtral";
  } else if (model_type == "idefics3" || model_type == "smolvlm") {
    // Idefics3Connector.modality_projection: vision h · scale_factor² → text h, no bias.
    n = Idefics3VisionParams(v, m);
    const std::int64_t scale = top.Int("scale_factor", 1, 64).value_or(2);
    n = m.Add(n, m.Mul(m.Mul(VitWidth(v, 1152), scale, scale), text_hidden));
    out.name = "SigLIP";
  } else if (model_type == "llama4") {
    n = Llama4VisionParams(v, m, text_hidden);
    out.name = "Llama 4 ViT";
  } else if (model_type == "qwen2_vl") {
    n = Qwen2VlVisionParams(v, m);
    out.name = "Qwen2-VL ViT";
  } else if (model_type == "qwen2_5_vl") {
    n = Qwen25VlVisionParams(v, m);
    out.name = "Qwen2.5-VL ViT";
  } else if (model_type == "qwen3_vl" || model_type == "qwen3_vl_moe") {
    n = Qwen3VlVisionParams(v, m, true);
    out.name = "Qwen3-VL ViT";
  } else if (model_type == "qwen3_5" || model_type == "qwen3_5_moe") {
    n = Qwen3VlVisionParams(v, m, false);
    out.name = "Qwen3.5 ViT";
  } else if (model_type == "kimi_vl" || model_type == "kimi_k25") {
    n = MoonVitParams(v, m, model_type == "kimi_k25", text_hidden);
    out.name = "MoonViT";
  } else if (model_type == "glm4v" || model_type == "glm4v_moe") {
    n = Glm4vVisionParams(v, m);
    out.name = "GLM-4V ViT";
  } else if (model_type == "ernie4_5_moe_vl" || model_type == "ernie4_5_vl_moe") {
    n = ErnieVlVisionParams(top, v, m, text_hidden);
    out.name = "ERNIE-4.5-VL ViT";
  } else if (model_type == "internvl_chat") {
    n = InternVitParams(top, v, m, text_hidden);
    out.name = "InternViT";
  } else {
    return out;
  }
  if (!errors.empty()) {
    out.name.clear();
    out.unread = errors.front().path + ": " + errors.front().message;
    return out;
  }
  if (m.overflowed()) {
    out.name.clear();
    out.unread = "its size overflows a 64-bit count";
    return out;
  }
  out.params = n;
  return out;
}

}  // namespace model_detail

std::int64_t CountVisionParams(const nlohmann::json& multimodal_config, std::int64_t text_hidden) {
  const model_detail::VisionTower tower =
      model_detail::CountVisionTower(multimodal_config, text_hidden, "");
  return tower.name.empty() ? 0 : tower.params;
}

}  // namespace trainmem
