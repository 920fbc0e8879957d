# SOURCE: https://github.com/NVIDIA-NeMo/Megatron-Bridge/issues/3597  (malay-nagda, 2026-04-30)
#   "[bug] OOM observed with `fp4_param_gather=true` for DEEPSEEK_V3_PRETRAIN_CONFIG_B200_NVFP4_V2"
#   Verbatim "Minimal repro" (the command in the issue names llama31_405b although the title names DeepSeek-V3).
# REPORTED: OOM after task initialization; commit fcb4c287b312c78585d114c5a6a71574dbfc290f,
#   container nvcr.io/nvidian/nemo:nightly-2026-04-28; GPU stated "B200" in Environment, --gpu gb200 in command; 256 GPUs.
python3 -m venv bridge_venv
source bridge_venv/bin/activate

pip3 install git+https://github.com/NVIDIA-NeMo/Run.git
git clone https://github.com/NVIDIA-NeMo/Megatron-Bridge.git
cd Megatron-Bridge

git checkout fcb4c287b312c78585d114c5a6a71574dbfc290f

python3 scripts/performance/setup_experiment.py --model_family_name llama --model_recipe_name llama31_405b --num_gpus 256 --hf_token <HF_TOKEN> --account <SLURM_ACCOUNT> --partition <SLURM_PARTITION> --time_limit 01:00:00 --container_image nvcr.io/nvidian/nemo:nightly-2026-04-28 --gpu gb200 --compute_dtype nvfp4 mixed_precision.fp4_param_gather=False
