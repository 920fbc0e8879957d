# Model arguments of a small MLA + MoE model (written for the import tests).
MODEL_ARGS="
    --num-layers 16 \
    --hidden-size 2048 \
    --ffn-hidden-size 10944 \
    --num-attention-heads 16 \
    --multi-latent-attention \
    --kv-lora-rank 512 \
    --qk-head-dim 128 \
    --qk-pos-emb-head-dim 64 \
    --v-head-dim 128 \
    --num-experts 64 \
    --moe-router-topk 6 \
    --moe-ffn-hidden-size 1408 \
    --n-shared-experts 2 \
    --moe-layer-freq [0]*1+[1]*15 \
    --swiglu \
    --normalization RMSNorm \
    --untie-embeddings-and-output-weights \
    --disable-bias-linear \
    --position-embedding-type rope \
    --max-position-embeddings 4096 \
    --padded-vocab-size 102400
"
