# SOURCE: https://github.com/NVIDIA-NeMo/Megatron-Bridge/issues/3500  (mutian00, 2026-04-23)
#   "[bug] Nemotron-3-Super pretrain OOMs with CUDA Graphs on GB300 (NVFP4, EP=64)"
#   Verbatim from the issue's "Minimal repro" as stored in the search index excerpt; the torchrun
#   line is cut off in the excerpt after --nproc-per-node="4" (4 GPUs/node GB300, 64 GPUs total per title EP=64).
# REPORTED: one node CUDA OOM with CUDA graphs on; same config with model.cuda_graph_impl="none" completes
#   (Step Time 20.61s, 538.9 MODEL_TFLOP/s/GPU). Maintainer (cuichenx, 2026-04-25): log shows
#   "56.70 GiB allocated in private pools (e.g., CUDA Graphs)"; cause = recipe NVFP4 default with
#   fp4_param_gather=True when run via the example script instead of the perf harness.
# Recipe behind the script: nemotron_3_super pretrain (examples/models/nemotron_3/super/pretrain_nemotron_3_super.py).
worker_command=$(cat <<- EOM
  python examples/models/nemotron_3/super/pretrain_nemotron_3_super.py \
    checkpoint.save=null \
    checkpoint.async_save=False \
    checkpoint.save_interval=null \
    checkpoint.use_persistent_ckpt_worker=False \
    checkpoint.fully_parallel_save=False \
    train.global_batch_size=512 \
    train.train_iters=100 \
    train.manual_gc=True \
    train.manual_gc_interval=100 \
    scheduler.lr_warmup_iters=10 \
    model.tensor_model_parallel_size=1 \
    model.pipeline_model_parallel_size=1 \
    model.expert_model_parallel_size=64 \
    model.sequence_parallel=True \
    model.cuda_graph_impl="none" \
    validation.eval_iters=0 \

EOM

torchrun \
--nproc-per-node="4" \
