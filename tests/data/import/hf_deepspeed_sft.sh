#!/bin/bash
deepspeed --num_gpus 8 train.py \
  --deepspeed ds_z3.json \
  --model_name_or_path meta-llama/Llama-3.1-8B \
  --per_device_train_batch_size 2 \
  --gradient_accumulation_steps 8 \
  --model_max_length 4096 \
  --bf16 True \
  --gradient_checkpointing True \
  --output_dir out
