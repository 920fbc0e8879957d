#!/bin/bash
# A MindSpeed-LLM style launch written for the import tests: the model comes from a sourced file.
export HCCL_CONNECT_TIMEOUT=1200
NPUS_PER_NODE=16
NNODES=4
TP=1
PP=4
EP=16
source ./examples/model_args_moe.sh

GPT_ARGS="
    --use-mcore-models \
    --tensor-model-parallel-size ${TP} \
    --pipeline-model-parallel-size ${PP} \
    --expert-model-parallel-size ${EP} \
    --num-layers-per-virtual-pipeline-stage 2 \
    --use-distributed-optimizer \
    --micro-batch-size 1 \
    --global-batch-size 256 \
    --seq-length 4096 \
    --swap-optimizer \
    --reuse-fp32-param \
    --recompute-granularity full \
    --recompute-method block \
    --recompute-num-layers 4 \
    --bf16
"

python -m torch.distributed.launch --nproc_per_node $NPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \
    $GPT_ARGS \
    $MODEL_ARGS \
    --distributed-backend nccl | tee logs/train.log
