#!/bin/bash
NPUS_PER_NODE=16
NNODES=2
DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank 0"

# The command line wins over the YAML: the sequence is 8192 here, not the YAML's 4096.
torchrun $DISTRIBUTED_ARGS train_fsdp2.py \
    examples/fsdp2/fsdp2_moe_A3.yaml \
    --parallel.fsdp_size 32 \
    --data.cutoff_len=8192 \
    --optimization.use_flash_attn \
    --training.output_dir ./out
