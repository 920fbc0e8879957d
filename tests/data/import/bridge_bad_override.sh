# trainmem test input (not from a real job): a Hydra override whose value is no number, which
# `trainmem import --json` refuses with a JSON object naming the key and line.
torchrun --nproc_per_node=8 pretrain_llama3_8b.py \
  model.tensor_model_parallel_size=abc
