# SOURCE: https://github.com/NVIDIA-NeMo/Megatron-Bridge/issues/2974  (LckyLke, 2026-03-24)
#   "[support] nemotron3-super pretraining on hopper gpus" -- verbatim command from the issue description.
# GPU: 1x H100 80GB (error there) / RTX 5070 (Blackwell). Tiny hybrid (Mamba+MoE) model via overrides:
#   note model.hybrid_override_pattern, model.moe_latent_size, model.mamba_num_heads keys, and the
#   *v0.2-style* dataset.sequence_length key. Issue also prints "[model] Non-default values (vs Mcore
#   TransformerConfig)" incl. fp4: 'e2m1', first_last_layers_bf16: True, expert_tensor_parallel_size: 1.
WANDB_MODE=offline torchrun --nproc-per-node=1 examples/models/nemotron_3/pretrain_nemotron_3_super.py \
  logger.wandb_project=nemotron_test \
  logger.wandb_entity=lukefriedrichs \
  train.global_batch_size=2 \
  train.micro_batch_size=1 \
  train.train_iters=10 \
  scheduler.lr_warmup_iters=2 \
  scheduler.lr_decay_iters=10 \
  dataset.sequence_length=16 \
  model.seq_length=16 \
  model.tensor_model_parallel_size=1 \
  model.expert_model_parallel_size=1 \
  model.hybrid_override_pattern="MEME*ME" \
  model.num_layers=7 \
  model.hidden_size=128 \
  model.num_moe_experts=8 \
  model.ffn_hidden_size=128 \
  model.moe_shared_expert_intermediate_size=128 \
  model.moe_latent_size=128 \
  model.mamba_num_heads=8 \
  model.num_attention_heads=8
