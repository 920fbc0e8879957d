#!/bin/bash
# A Megatron-LM launch written for the import tests (Llama-3-8B shape on 2 nodes of 8 GPUs).
set -euo pipefail
rm -rf /tmp/should-never-run   # the importer reads scripts, it never runs them

GPUS_PER_NODE=${GPUS_PER_NODE:-8}
NNODES=${NNODES:-2}
WORLD_SIZE=$(( GPUS_PER_NODE * NNODES ))
TP=${TP:-2}
PP=${PP:-2}
MBS=1
GBS=$((MBS * 64))
DTYPE=${1:-"fp8"}
CKPT=$(date +%s)

MODEL_ARGS=(
    --num-layers 32
    --hidden-size 4096 --ffn-hidden-size 14336
    # grouped-query attention: 8 KV heads
    --num-attention-heads 32
    --group-query-attention
    --num-query-groups 8
    --kv-channels 128
    --swiglu
    --normalization RMSNorm
    --position-embedding-type rope
    --untie-embeddings-and-output-weights
    --disable-bias-linear
    --max-position-embeddings 8192
)

PARALLEL_ARGS=(
    --tensor-model-parallel-size ${TP}
    --pipeline-model-parallel-size $PP
    --sequence-parallel
    --use-distributed-optimizer
)

TRAINING_ARGS="--micro-batch-size $MBS \
    --global-batch-size $GBS \
    --seq-length 8192 \
    --lr 3e-4 --bf16 \
    --recompute-granularity full \
    --recompute-method uniform \
    --recompute-num-layers 1"

EXTRA_ARGS=()
if [[ "$DTYPE" == "fp8" ]]; then
    EXTRA_ARGS+=(--fp8-format hybrid "--fp8-amax-history-len 1024")
else
    EXTRA_ARGS+=(--attention-dropout 0.1)
fi
if [ -n "${USE_MOCK:-}" ]; then
    EXTRA_ARGS+=(--mock-data)
fi

torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \
    ${MODEL_ARGS[@]} \
    "${PARALLEL_ARGS[@]}" \
    $TRAINING_ARGS \
    ${EXTRA_ARGS[@]} \
    --tokenizer-type HuggingFaceTokenizer --tokenizer-model meta-llama/Meta-Llama-3-8B \
    --vocab-size 128256 \
    --save $CKPT 2>&1 | tee train.log
