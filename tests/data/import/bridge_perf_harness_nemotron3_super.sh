# SOURCE: https://github.com/NVIDIA-NeMo/Megatron-Bridge/issues/3500  maintainer comment (cuichenx, 2026-04-25), verbatim.
#   Perf-harness launch (scripts/performance/setup_experiment.py): model selected by family+recipe name,
#   GPU type, GPU count, compute dtype; parallelism comes from the workload base config for (model, gpu, dtype).
python scripts/performance/setup_experiment.py \
    --model_family_name nemotronh \
    --model_recipe_name nemotron_3_super \
    --task pretrain \
    --gpu gb300 \
    --num_gpus 64 \
    --gpus_per_node 4 \
    --compute_dtype bf16    # or nvfp4 / fp8_mx
