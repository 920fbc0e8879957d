# SOURCE: github.com/NVIDIA-NeMo/Megatron-Bridge examples/recipes/llama/pretrain_llama3_8b.py, commit 7af9601c9da746d21481194356295bfe23df3737 (tag v0.2.0),
#   module docstring lines 33-35 and main() docstring lines 124-127, verbatim (leading '$ ' removed). Example script = recipe llama3_8b_pretrain_config + --config-file + Hydra dotlist.
torchrun --nproc_per_node=8 pretrain_llama3_8b.py --config-file conf/my_config.yaml \
model.pipeline_dtype=torch.float16 \
train.global_batch_size=512

torchrun --nproc_per_node=8 pretrain_llama3_8b.py \
model.tensor_model_parallel_size=4 \
model.pipeline_model_parallel_size=2 \
train.global_batch_size=512
