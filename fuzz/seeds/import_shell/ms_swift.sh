# 2 * 40GiB
NPROC_PER_NODE=2 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --tuner_type full \
    --torch_dtype bfloat16 \
    --quant_method bnb --quant_bits 4 \
    --fsdp fsdp2 \
    --sequence_parallel_size 2 \
    --max_length 4096

NPROC_PER_NODE=8 megatron rlhf \
    --rlhf_type grpo \
    --model Qwen/Qwen3-30B-A3B \
    --tensor_model_parallel_size 2 \
    --expert_model_parallel_size 4 \
    --sequence_parallel true \
    --use_distributed_optimizer false \
    --max_length 1024 --max_completion_length 2048 \
    --tuner_type lora --lora_rank 16

CUDA_VISIBLE_DEVICES=0 NPROC_PER_NODE=1 swift infer --adapters out/checkpoint-1
