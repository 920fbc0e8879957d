# SOURCE: github.com/NVIDIA-NeMo/Megatron-Bridge scripts/training/README.md, commit 067f987df03b8355b03192d88d70f1709fedf51a (snapshot HEAD 2026-08-22), lines 63-69 verbatim (code fence dropped).
# Benchmark recipe: name encodes model, mode, canonical GPU count (16), GPU (h100), precision (bf16).
./scripts/training/train.sh \
    --nodes 2 --gpus-per-node 8 \
    --account ACCOUNT --partition PARTITION \
    --container-image IMAGE \
    --recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config \
    --mode pretrain
