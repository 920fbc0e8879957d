# A torchtitan-npu style registry in the spring-2026 key names, written for the import tests.
from torchtitan.config import ActivationCheckpointConfig
from torchtitan_npu.config.configs import OptimizerConfig, ParallelismConfig, TrainerConfig, TrainingConfig

from . import model_registry


def deepseek_v3_671b_128die() -> TrainerConfig:
    return TrainerConfig(
        model_spec=model_registry("671B"),
        optimizer=OptimizerConfig(
            name="AdamW",
            lr=7.3e-6,
            swap_optimizer=True,
            swap_optimizer_times=8,
        ),
        training=TrainingConfig(
            local_batch_size=1,
            global_batch_size=512,
            seq_len=4096,
        ),
        parallelism=ParallelismConfig(
            data_parallel_shard_degree=-1,
            tensor_parallel_degree=4,
            pipeline_parallel_degree=1,
            expert_parallel_degree=32,
            expert_tensor_parallel_degree=1,
            context_parallel_degree=2,
            enable_custom_context_parallel=True,
        ),
        activation_checkpoint=ActivationCheckpointConfig(mode="full"),
    )
