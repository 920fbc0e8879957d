# Recipes in the class-based torchtitan layout, written for the import tests.
from torchtitan.components.quantization import Float8LinearConverter
from torchtitan.config import CompileConfig, ParallelismConfig, TrainingConfig
from torchtitan.distributed.activation_checkpoint import FullAC, MemoryBudgetAC, SelectiveAC
from torchtitan.trainer import Trainer

from . import model_registry

SEQ = 4 * 2048  # 8192


def _parallel(tp: int = 1) -> ParallelismConfig:
    return ParallelismConfig(tensor_parallel_degree=tp, pipeline_parallel_degree=1)


def llama3_70b() -> Trainer.Config:
    """Llama 3 70B on 64 GPUs."""
    model_spec = model_registry(
        "70B",
        converters=[
            Float8LinearConverter.Config(filter_fqns=["lm_head"]),
        ],
    )
    return Trainer.Config(
        hf_assets_path="./assets/hf/Llama-3.1-70B",
        model_spec=model_spec,
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=2 * SEQ,
            max_context_length=SEQ,
            steps=1000,
        ),
        parallelism=_parallel(tp=8),
        activation_checkpoint=FullAC.Config(),
        compile=CompileConfig(enable=True, components=["model"]),
    )


def llama3_70b_pp() -> Trainer.Config:
    config = llama3_70b()
    config.parallelism.pipeline_parallel_degree = 4
    config.parallelism.num_pp_microbatches = 8
    config.training.num_tokens_per_microbatch_per_dp_rank = 1 * SEQ
    config.activation_checkpoint = MemoryBudgetAC.Config(memory_budget=0.3)
    if config.compile.enable:
        config.compile.enable = False
    return config


def llama3_70b_no_ac() -> Trainer.Config:
    config = llama3_70b()
    config.activation_checkpoint = None
    config.parallelism.tensor_parallel_degree += 0
    return config
