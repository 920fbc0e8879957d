# SOURCE: github.com/NVIDIA-NeMo/Megatron-Bridge docs/megatron-lm-to-megatron-bridge.md, commit 7af9601c9da746d21481194356295bfe23df3737 (tag v0.2.0), lines 10-17 verbatim (closing code fence dropped).
python examples/recipes/llama/pretrain_llama3_8b.py \
  train.micro_batch_size=2 \
  train.global_batch_size=128 \
  model.num_layers=32 model.hidden_size=4096 model.num_attention_heads=32 \
  model.max_position_embeddings=4096 \
  dataset.sequence_length=4096 \
  checkpoint.save=/workspace/ckpts checkpoint.save_interval=1000 \
  logger.wandb_project=my_proj logger.wandb_exp_name=exp1
