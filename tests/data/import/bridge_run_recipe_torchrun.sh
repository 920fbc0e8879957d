# SOURCE: github.com/NVIDIA-NeMo/Megatron-Bridge scripts/training/README.md, commit 067f987df03b8355b03192d88d70f1709fedf51a (snapshot HEAD 2026-08-22), lines 329-334 and 249-257 verbatim (code fences dropped).
uv run python -m torch.distributed.run --nproc_per_node=2 \
    scripts/training/run_recipe.py \
    --recipe vanilla_gpt_pretrain_config \
    --mode pretrain --dataset mock \
    model.tensor_model_parallel_size=2 \
    model.sequence_parallel=true

./scripts/training/train.sh \
    --nodes 1 --gpus-per-node 8 \
    --account ACCOUNT --partition PARTITION \
    --container-image /path/to/container.sqsh \
    --recipe llama32_1b_pretrain_config \
    --mode pretrain --dataset mock \
    -ms 10 -gb 8 -mb 1 \
    --lr 0.0002 --warmup_iters 1 \
    scheduler.lr_decay_iters=10
