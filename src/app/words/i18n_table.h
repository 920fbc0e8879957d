// The page's strings, English. One line per string: TRAINMEM_STR(id, "text"). Included twice by
// i18n.h/i18n.cpp (enum, then text), so ids and texts cannot drift apart. Templates use printf
// conversions; translations must keep the same conversions in the same order.
// No include guard on purpose.

// ---- Page ----------------------------------------------------------------------------------
TRAINMEM_STR(kEmpty, "")
TRAINMEM_STR(kAppName, "trainmem")
TRAINMEM_STR(kAppTagline, "training memory per device, before you launch")
TRAINMEM_STR(kDocumentTitle, "%s on %s — trainmem")
TRAINMEM_STR(kSummaryTemplate, "%s on %s: %s of %s usable — %s")
TRAINMEM_STR(kSummaryFits, "fits")
TRAINMEM_STR(kSummaryDoesNotFit, "does not fit")
TRAINMEM_STR(kSummaryClose, "close to the limit")
TRAINMEM_STR(kSummaryLinkPartly, "the link could not be read in full; no verdict")
TRAINMEM_STR(kDismiss, "Dismiss")
TRAINMEM_STR(kLinkKeyProblemTemplate, "%s: %s")  // a key and its problem (links, imports)
TRAINMEM_STR(kLinkReasonExpectsTemplate, "%s (%s expects %s)")
TRAINMEM_STR(kLanguageSwitch, "\xE4\xB8\xAD\xE6\x96\x87")
TRAINMEM_STR(kLanguageSwitchHelp, "Show the page in Chinese (\xE4\xB8\xAD\xE6\x96\x87)")
TRAINMEM_STR(kHelpMarker, "(?)")
TRAINMEM_STR(kGiBOneDecimal, "%.1f GiB")
TRAINMEM_STR(kErrNotJsonObject, "not a JSON object; paste the whole config.json")

// ---- Share and export ----------------------------------------------------------------------
TRAINMEM_STR(kCopyLink, "Copy link")
TRAINMEM_STR(kCopyLinkHelp, "Copy a link that opens this exact estimate")
TRAINMEM_STR(kCopyEmbedSnippet, "Copy embed snippet")
TRAINMEM_STR(kCopyEmbedSnippetHelp,
             "Copy an <iframe> that shows a compact, read-only card of this estimate in a document")
TRAINMEM_STR(kExportMenu, "Export \xE2\x96\xBC")
TRAINMEM_STR(kExportMarkdown, "Markdown")
TRAINMEM_STR(kExportCsv, "CSV")
TRAINMEM_STR(kExportJson, "JSON")
TRAINMEM_STR(kCopy, "Copy")
TRAINMEM_STR(kDownload, "Download")
TRAINMEM_STR(kFeedbackCopied, "Copied \xE2\x9C\x93")
TRAINMEM_STR(kFeedbackDownloaded, "Downloaded \xE2\x9C\x93")
TRAINMEM_STR(kFeedbackLinkCopied, "Link copied \xE2\x9C\x93")
TRAINMEM_STR(kFeedbackSnippetCopied, "Embed snippet copied \xE2\x9C\x93")
TRAINMEM_STR(kFeedbackApplied, "Applied: %s")
TRAINMEM_STR(kFeedbackConfigUsed, "config.json loaded \xE2\x9C\x93")

// ---- Import (panel_import.cpp) ----------------------------------------------------------------
TRAINMEM_STR(kSectionImport, "Import a job file")
TRAINMEM_STR(kImportHint,
             "Drop, paste or open the files you run the job from (torchtitan, Megatron, "
             "MindSpeed-LLM, DeepSpeed, Hugging Face Trainer, LLaMA-Factory, axolotl, ms-swift, "
             "torchtune) and the files they "
             "name. They are read here, never run or uploaded.")
TRAINMEM_STR(kImportOpenFiles, "Open files\xE2\x80\xA6")
TRAINMEM_STR(kImportOpenFilesHelp, "Choose one or several job files from your computer")
TRAINMEM_STR(kImportPaste, "Paste")
TRAINMEM_STR(kImportPasteHelp, "Import the text on the clipboard as a job file")
TRAINMEM_STR(kImportClear, "Clear")
TRAINMEM_STR(kImportReadingTemplate, "Reading %d file(s)\xE2\x80\xA6")
TRAINMEM_STR(kImportRecipe, "Recipe")
TRAINMEM_STR(kImportRecipeHelp,
             "The registry holds several recipes; torchtitan runs the one named by --config")
TRAINMEM_STR(kImportSummaryTemplate, "Read: %d \xC2\xB7 ignored: %d \xC2\xB7 missing: %d")
TRAINMEM_STR(kImportKeptTemplate, "Kept from the page (the files do not state them): %s")
TRAINMEM_STR(kImportApplied, "This is now the current config; the share link holds it.")
TRAINMEM_STR(kImportNotApplied, "Not estimated yet: fill in what is missing.")
TRAINMEM_STR(kImportMissing, "Missing")
TRAINMEM_STR(kImportAssumedTemplate, "assumed %s")
TRAINMEM_STR(kImportApply, "Apply")
TRAINMEM_STR(kImportApplyHelp, "Use the values typed above (JSON or text, as in --set)")
TRAINMEM_STR(kImportProblems, "Inconsistencies")
TRAINMEM_STR(kImportWantedTemplate,
             "The job names files not given here: %s. Add them (Open files\xE2\x80\xA6, or drop "
             "them on the page) and they are read with the others.")
TRAINMEM_STR(kImportReadTemplate, "Read (%d)")
TRAINMEM_STR(kImportIgnoredTemplate, "Ignored (%d)")
TRAINMEM_STR(kImportNotesTemplate, "Decisions (%d)")
TRAINMEM_STR(kImportMeasurementsTemplate, "Measurement files handed to the comparison: %d")
TRAINMEM_STR(kImportModelOnly,
             "A config.json describes the model only: it replaced the model and kept the rest of "
             "this page's job (device, devices, framework, batch, parallelism)")

// ---- Embed card ----------------------------------------------------------------------------
TRAINMEM_STR(kEmbedTitleTemplate, "%s on %lld \xC3\x97 %s")
TRAINMEM_STR(kEmbedHowTemplate, "%s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s")
TRAINMEM_STR(kBatchWords, "batch %lld \xC3\x97 %lld tokens")
TRAINMEM_STR(kMicroBatchWords,
             "micro-batch %lld \xC3\x97 %lld tokens, %lld samples per step per data-parallel rank")
TRAINMEM_STR(kEmbedFrameTitleTemplate, "trainmem estimate: %s")
TRAINMEM_STR(kOpenInTrainmem, "Open in trainmem \xE2\x86\x97")
TRAINMEM_STR(kEmbedFooter, "estimate, not a measurement")

// ---- Input sections --------------------------------------------------------------------------
TRAINMEM_STR(kSectionModel, "Model")
TRAINMEM_STR(kSectionDevice, "Device and cluster")
TRAINMEM_STR(kSectionParallelism, "Parallelism")
TRAINMEM_STR(kSectionTraining, "Training")
TRAINMEM_STR(kSectionActivationCheckpoint, "Activation checkpointing and compile")
TRAINMEM_STR(kSectionOptimizer, "Optimizer")
TRAINMEM_STR(kSectionMethod, "Framework and method")
TRAINMEM_STR(kFrameworkDefault, "framework default")
TRAINMEM_STR(kHalve, "Halve")
TRAINMEM_STR(kDouble, "Double")
TRAINMEM_STR(kDecrease, "Decrease by one")
TRAINMEM_STR(kIncrease, "Increase by one")

// ---- Model -----------------------------------------------------------------------------------
TRAINMEM_STR(kSearchModels, "Search models (name, family, size)")
TRAINMEM_STR(kModelComboHelp, "A preset model, or a custom architecture / Hugging Face config.json")
TRAINMEM_STR(kCustomModelItem, "Custom model\xE2\x80\xA6")
TRAINMEM_STR(kCustomModelName, "Custom model")
TRAINMEM_STR(kEditArchitecture, "Edit architecture / paste config.json\xE2\x80\xA6")
TRAINMEM_STR(kArchitectureFields, "Architecture (config.json fields)")
TRAINMEM_STR(kPasteConfigJson, "Paste a Hugging Face config.json")
TRAINMEM_STR(kPasteConfigHelp,
             "Paste the model's config.json (Ctrl+V in the box, or the button), then use it.")
TRAINMEM_STR(kUseConfigJson, "Use this config.json")
TRAINMEM_STR(kPasteFromClipboard, "Paste from clipboard")
TRAINMEM_STR(kBackToPresets, "\xE2\x86\x90 Back to presets")
TRAINMEM_STR(kArchLineTemplate,
             "%lld layers \xC2\xB7 hidden %lld \xC2\xB7 %lld heads (%lld KV) \xC2\xB7 vocab %lld")
TRAINMEM_STR(kArchMoeTemplate, " \xC2\xB7 %lld experts, top-%lld")
TRAINMEM_STR(kArchSlidingHeadsTemplate, " \xC2\xB7 %lld heads on the sliding-window layers")

// ---- Device ----------------------------------------------------------------------------------
TRAINMEM_STR(kCustomDeviceItem, "Custom device\xE2\x80\xA6")
TRAINMEM_STR(kDeviceName, "Name")
TRAINMEM_STR(kCustomDeviceNameTemplate, "%s (custom)")
TRAINMEM_STR(kCustomWord, "custom")
TRAINMEM_STR(kDeviceMemory, "Memory")
TRAINMEM_STR(kDeviceMemoryHelp,
             "What the framework sees (torch.cuda.mem_get_info total), in GiB; usually less than "
             "the GB on the box")
TRAINMEM_STR(kDeviceNoteTemplate, "Sold as %.0f GB \xC2\xB7 %.1f GiB visible to the framework")
TRAINMEM_STR(kWorldSize, "World size")
TRAINMEM_STR(kWorldSizeHelp, "Number of devices (ranks) in the job")

// ---- Parallelism -----------------------------------------------------------------------------
TRAINMEM_STR(kDpReplicate, "DP replicate")
TRAINMEM_STR(kDpReplicateHelp,
             "Data-parallel replicas (DDP / HSDP outer dimension): each replica holds a full copy "
             "of the sharded state")
TRAINMEM_STR(kDpShard, "DP shard (FSDP)")
TRAINMEM_STR(kDataParallelOne, "Data parallel")
TRAINMEM_STR(kDataParallelOneHelp,
             "Megatron's and DeepSpeed's one data-parallel group; \"the rest\" (-1 in configs) "
             "takes the devices the other degrees leave over. What it shards is the ZeRO stage's "
             "(Megatron: 1 = the distributed optimizer)")
TRAINMEM_STR(kDpShardHelp,
             "FSDP / ZeRO-3 sharding degree; \"the rest\" (-1 in configs) takes the devices the "
             "other degrees leave over")
TRAINMEM_STR(kTheRest, "the rest")
TRAINMEM_STR(kTheRestTemplate, "the rest: %lld")
TRAINMEM_STR(kTensorParallel, "Tensor parallel")
TRAINMEM_STR(kTensorParallelHelp,
             "Splits each layer's matrices over this many devices; must divide the attention heads")
TRAINMEM_STR(kPipelineParallel, "Pipeline parallel")
TRAINMEM_STR(kPipelineParallelHelp, "Splits the layers into this many stages")
TRAINMEM_STR(kContextParallel, "Context parallel")
TRAINMEM_STR(kContextParallelHelp, "Splits the sequence over this many devices (ring attention)")
TRAINMEM_STR(kExpertParallel, "Expert parallel")
TRAINMEM_STR(kExpertParallelHelp,
             "Spreads the routed experts over this many devices; must divide the number of experts")
TRAINMEM_STR(kExpertTensorParallel, "Expert TP")
TRAINMEM_STR(kExpertTensorParallelHelp,
             "Tensor parallelism inside each expert (1 or the TP degree)")
TRAINMEM_STR(kSequenceParallel, "Sequence parallel")
TRAINMEM_STR(kSequenceParallelHelp, "Shards norm/dropout activations over the TP group")
TRAINMEM_STR(kPpMicrobatch, "PP microbatch size")
TRAINMEM_STR(kPpMicrobatchHelp, "Samples per pipeline microbatch")
TRAINMEM_STR(kEpComm, "EP dispatcher")
TRAINMEM_STR(kEpCommHelp,
             "torchtitan's expert_parallel_comm_backend: how routed tokens travel between the "
             "expert-parallel ranks. DeepEP's and HybridEP's own buffers are not modelled; "
             "MinimalAsyncEP's receive buffers lie outside the allocator and come out of the "
             "usable memory")
TRAINMEM_STR(kEpCommStandard, "standard all-to-all")
TRAINMEM_STR(kEpCommDeepEp, "DeepEP")
TRAINMEM_STR(kEpCommHybridEp, "HybridEP")
TRAINMEM_STR(kEpCommMinimalAsyncEp, "MinimalAsyncEP")
TRAINMEM_STR(kPpSchedule, "PP schedule")
TRAINMEM_STR(kPpScheduleHelp, "Decides how many microbatches' activations a stage holds at once")
TRAINMEM_STR(kPpLayersPerStage, "Layers per stage")
TRAINMEM_STR(kPpLayersPerStageHelp, "\"even split\" (0 in configs) divides the layers evenly")
TRAINMEM_STR(kEvenSplit, "even split")
TRAINMEM_STR(kVpMicrobatchGroup, "Microbatch group")
TRAINMEM_STR(kVpMicrobatchGroupHelp,
             "Interleaved schedule: microbatches each model chunk runs before the next chunk's "
             "turn (Megatron --microbatch-group-size-per-virtual-pipeline-stage); \"PP\" (0) is "
             "the default. Larger groups keep more chunks in flight")
TRAINMEM_STR(kVpMicrobatchGroupDefault, "PP")
TRAINMEM_STR(kPpGatheredNote,
             "With pipeline parallelism torchtitan keeps each stage's parameters gathered through "
             "all microbatches (FSDP does not reshard after forward), so more PP can raise the "
             "total: the unsharded stage weights outweigh what the split saves.")
TRAINMEM_STR(kZeroStage, "ZeRO stage")
TRAINMEM_STR(kZeroStageHelp, "DeepSpeed ZeRO stage; for Megatron, 1 = distributed optimizer")
TRAINMEM_STR(kLayoutLineTemplate,
             "dp_replicate %lld \xC3\x97 dp_shard %lld \xC3\x97 cp %lld \xC3\x97 tp %lld \xC3\x97 "
             "pp %lld = %lld ranks")
TRAINMEM_STR(kLayoutLineOneGroupTemplate,
             "dp %lld \xC3\x97 cp %lld \xC3\x97 tp %lld \xC3\x97 pp %lld = %lld ranks")
TRAINMEM_STR(kLayoutDetailTemplate,
             "dp_replicate %lld \xC2\xB7 dp_shard %lld \xC2\xB7 tp %lld \xC2\xB7 pp %lld \xC2\xB7 "
             "cp %lld \xC2\xB7 ep %lld \xC2\xB7 etp %lld")
TRAINMEM_STR(kLayoutMoeTemplate, " \xC2\xB7 ep %lld, etp %lld")
TRAINMEM_STR(kSchedule1F1B, "1F1B")
TRAINMEM_STR(kScheduleInterleaved, "Interleaved 1F1B")
TRAINMEM_STR(kScheduleGPipe, "GPipe")
TRAINMEM_STR(kScheduleZeroBubble, "Zero bubble")

// ---- Training ----------------------------------------------------------------------------------
TRAINMEM_STR(kLocalBatchSize, "Local batch size")
TRAINMEM_STR(kLocalBatchSizeHelp, "Samples per device per step")
TRAINMEM_STR(kSeqLen, "Sequence length")
TRAINMEM_STR(kSeqLenHelp, "Tokens per sample")
TRAINMEM_STR(kLossChunks, "Loss chunks")
TRAINMEM_STR(
    kLossChunksHelp,
    "Chunked cross-entropy: the fp32 logits are materialised this many tokens-chunks at a time")
TRAINMEM_STR(kLoraRank, "LoRA rank")
TRAINMEM_STR(kLoraWords, "LoRA rank %lld, base weights frozen")
TRAINMEM_STR(kLoraRankHelp,
             "0 trains every weight. Otherwise rank-r adapters on every 2-D weight of the blocks "
             "train and the base weights are frozen: no gradients, optimizer states or fp32 "
             "master for them")
TRAINMEM_STR(kBaseQuant, "Base weights")
TRAINMEM_STR(kBaseQuantHelp,
             "QLoRA: how the frozen block linears are stored (bitsandbytes on the Hugging Face "
             "Trainer, torchao's NF4 in torchtune). 16-bit: as the framework stores parameters. "
             "8-bit: LLM.int8, 1 byte a weight. NF4: half a byte and an fp32 scale per 64 "
             "(0.56 B); with double quantization the scales are 8-bit too (0.52 B). The "
             "embedding, head and norms stay 16-bit")
TRAINMEM_STR(kBaseQuantNone, "16-bit (not quantized)")
TRAINMEM_STR(kBaseQuantInt8, "8-bit (LLM.int8)")
TRAINMEM_STR(kBaseQuantNf4, "4-bit NF4")
TRAINMEM_STR(kBaseQuantNf4Double, "4-bit NF4, double quantization")
TRAINMEM_STR(kBaseQuantWords, "%s base")
TRAINMEM_STR(kPrecision, "Compute dtype")
TRAINMEM_STR(kPrecisionHelp,
             "mixed_precision_param: the dtype layers are cast to for forward and backward. What "
             "a parameter costs in memory depends on the framework's master copy (see below).")
TRAINMEM_STR(kPrecisionNoteFsdp,
             "fp32 master weights and gradients (4 B each per parameter, sharded by FSDP); layers "
             "are cast to this dtype for compute")
TRAINMEM_STR(kPrecisionNoteFp32, "fp32 weights and gradients, fp32 compute")
TRAINMEM_STR(kStateDtypeFullBf16,
             "Full bf16 training: the states are created like the bf16 parameters, in bf16 (the "
             "dtype chosen above does not apply)")
TRAINMEM_STR(kPrecisionNoteFullBf16,
             "bf16 weights, gradients and optimizer states (2 B each per parameter, sharded as "
             "the framework shards them): no fp32 master copy")
TRAINMEM_STR(kPrecisionNoteMegatron,
             "Weights in this dtype (2 B), fp32 main gradients (4 B) and an fp32 master copy with "
             "the optimizer states")
TRAINMEM_STR(kPrecisionNoteDeepspeed,
             "Weights and gradients in this dtype (2 B each); the fp32 master copy lives with the "
             "optimizer states")
TRAINMEM_STR(kPrecisionNoteTorchtune,
             "Weights, gradients and optimizer states all in this dtype: no fp32 master copy")
TRAINMEM_STR(kFp8, "FP8 linears")
TRAINMEM_STR(kFp8Help, "Float8 matmuls (torchao / Transformer Engine); master weights stay in fp32")
TRAINMEM_STR(kNvfp4Layers, "NVFP4 blocks")
TRAINMEM_STR(
    kNvfp4LayersHelp,
    "Decoder blocks, counted from the first, whose linears run NVFP4 GEMMs (torchtitan's "
    "NVFP4 converter, Blackwell GPUs). Its recipes keep the last 15 percent of blocks and the "
    "LM head in bf16: 27 of Llama 3 8B's 32. -1: every block. Under per-op selective AC "
    "these blocks keep no linear outputs")
TRAINMEM_STR(kNvfp4None, "none")
TRAINMEM_STR(kNvfp4All, "all")
TRAINMEM_STR(kFullBf16, "Full bf16 training")
TRAINMEM_STR(kFullBf16Help,
             "torchtitan training.dtype = \"bfloat16\", or the Hugging Face Trainer without "
             "DeepSpeed training a model loaded in bf16 (ms-swift's full fine-tuning): "
             "parameters, gradients and optimizer states in bf16, no fp32 master copy")
TRAINMEM_STR(kDsaFused, "Fused DSA kernels")
TRAINMEM_STR(kDsaFusedHelp,
             "DeepSeek-V3.2's lightning indexer and its loss as fused kernels (MindSpeed "
             "--use-fused-lightning-indexer with --use-sparse-flash-attn). Off: each layer forms "
             "fp32 seq x seq scores for the indexer and its loss")
TRAINMEM_STR(kAttention, "Attention")
TRAINMEM_STR(kAttentionHelp,
             "Eager attention keeps the seq \xC3\x97 seq scores per head for backward. Flex is "
             "torchtitan's default (llama3, qwen3, deepseek_v3): with per-op selective "
             "checkpointing and no torch.compile it also keeps q and k")
TRAINMEM_STR(kDropout, "Dropout")
TRAINMEM_STR(kDropoutHelp,
             "Dropout keeps a mask per activation; frameworks differ in their default")
TRAINMEM_STR(kMtp, "Train MTP modules")
TRAINMEM_STR(kMtpHelp, "Also train the model's multi-token-prediction modules (DeepSeek)")
TRAINMEM_STR(kAcMode, "Checkpointing")
TRAINMEM_STR(kAcModeHelp,
             "Activation checkpointing: recompute activations in backward instead of keeping them")
TRAINMEM_STR(kAcOption, "Selective option")
TRAINMEM_STR(kAcOptionHelp,
             "\"op\": keep matmul/attention outputs by op policy; k: checkpoint every k-th block")
TRAINMEM_STR(kAcOptionOp, "op (per-operator policy)")
TRAINMEM_STR(kRecomputeNumLayers, "Blocks recomputed")
TRAINMEM_STR(kRecomputeNumLayersHelp,
             "Megatron --recompute-method block --recompute-num-layers N: only the first N blocks "
             "of each pipeline stage (of each virtual stage) are recomputed; the others keep all "
             "their activations. all: every block (--recompute-method uniform)")
TRAINMEM_STR(kAcOptionEvery, "%s (1 block in %s)")
TRAINMEM_STR(kAcOffload, "Offload to host")
TRAINMEM_STR(kAcOffloadHelp, "Saved activations are moved to host memory")
TRAINMEM_STR(kSwapAttention, "swap_attention")
TRAINMEM_STR(kSwapAttentionHelp,
             "MindSpeed --swap-attention: what each layer's norms and attention save for "
             "backward goes to host memory and is prefetched back; the MLP's stays")
TRAINMEM_STR(kCompile, "torch.compile")
TRAINMEM_STR(kCompileHelp, "Compiled models fuse element-wise ops and save fewer activations")
TRAINMEM_STR(kCompileComponents, "Compile")
TRAINMEM_STR(kCompileComponentsHelp, "torchtitan [compile] components")
TRAINMEM_STR(kCompileModel, "model")
TRAINMEM_STR(kCompileLoss, "loss")
TRAINMEM_STR(kAcNone, "None")
TRAINMEM_STR(kAcSelective, "Selective")
TRAINMEM_STR(kAcFull, "Full")
TRAINMEM_STR(kAttentionFlash, "Flash")
TRAINMEM_STR(kAttentionSdpa, "SDPA")
TRAINMEM_STR(kAttentionEager, "Eager")
TRAINMEM_STR(kAttentionFlex, "Flex")
TRAINMEM_STR(kDTypeBf16, "bfloat16")
TRAINMEM_STR(kDTypeFp16, "float16")
TRAINMEM_STR(kDTypeFp32, "float32")
TRAINMEM_STR(kDTypeInt8, "int8")

// ---- Optimizer ---------------------------------------------------------------------------------
TRAINMEM_STR(kOptimizer, "Optimizer")
TRAINMEM_STR(kOptimizerHelp, "Decides how many state tensors each parameter has")
TRAINMEM_STR(kStateDtype, "State dtype")
TRAINMEM_STR(kStateDtypeHelp, "Dtype of the optimizer states (moments)")
TRAINMEM_STR(kMomentum, "Momentum")
TRAINMEM_STR(kMomentumHelp, "0 keeps no momentum buffer")
TRAINMEM_STR(kSwapOptimizer, "swap_optimizer")
TRAINMEM_STR(
    kSwapOptimizerHelp,
    "torchtitan-npu / MindSpeed: Adam moments live in host memory and are swapped in slices")
TRAINMEM_STR(kReuseFp32Param, "reuse_fp32_param")
TRAINMEM_STR(kReuseFp32ParamHelp,
             "MindSpeed --reuse-fp32-param: with bf16 and the distributed optimizer the fp32 "
             "master copy shares the bf16 parameter buffer (2 bytes a parameter instead of 4)")
TRAINMEM_STR(kSwapTimes, "Swap slices")
TRAINMEM_STR(kSwapTimesHelp,
             "swap_optimizer_times: the device holds one slice of the moments at a time")
TRAINMEM_STR(kStepImpl, "Step kernel")
TRAINMEM_STR(kStepImplHelp,
             "How torch.optim's Adam steps: fused (one kernel, no temporaries; torchtitan's and "
             "current Hugging Face default, DeepSpeed's FusedAdam), foreach (torch's default "
             "when fused is not asked for, adamw_torch: a copy of every second moment during "
             "the step) or for-loop (one tensor at a time)")
TRAINMEM_STR(kStepImplFused, "fused")
TRAINMEM_STR(kStepImplForeach, "foreach (+1 state copy)")
TRAINMEM_STR(kStepImplForLoop, "for-loop")
TRAINMEM_STR(kEarlyStep, "Step in backward")
TRAINMEM_STR(kEarlyStepHelp,
             "Optimizer step fused into backward, per parameter: full gradients are never all held")
TRAINMEM_STR(kOptimizerOffload, "Offload to host")
TRAINMEM_STR(kOptimizerOffloadHelp,
             "Optimizer states and step on the host: DeepSpeed ZeRO-Offload, Megatron-Core "
             "--optimizer-cpu-offload, torchtune's CPU-offload optimizer")
TRAINMEM_STR(kNotInFramework, "%s has no such option: estimated as if it had")
TRAINMEM_STR(kNoteFrameworkSwitched,
             "Framework switched from %s to %s for %s (torchtitan-npu is torchtitan for Ascend).")
TRAINMEM_STR(kNoteSwapOff, " swap_optimizer turned off: %s has none.")
TRAINMEM_STR(kNoteOffloadOff, " Optimizer offload turned off: %s has none.")
TRAINMEM_STR(kOptimizerAdamW, "AdamW")
TRAINMEM_STR(kOptimizerAdam, "Adam")
TRAINMEM_STR(kOptimizerSgd, "SGD")
TRAINMEM_STR(kOptimizerLion, "Lion")
TRAINMEM_STR(kOptimizerAdafactor, "Adafactor")
TRAINMEM_STR(kOptimizerAdamW8bit, "AdamW 8-bit (bitsandbytes / torchao)")
TRAINMEM_STR(kOptimizerPagedAdamW8bit, "Paged AdamW 8-bit (bitsandbytes)")
TRAINMEM_STR(kOptimizerPagedAdamW, "Paged AdamW (bitsandbytes)")
TRAINMEM_STR(kOptimizerAdamW4bit, "AdamW 4-bit (torchao)")
TRAINMEM_STR(kOptimizerLion8bit, "Lion 8-bit (bitsandbytes)")
TRAINMEM_STR(kOptimizerMuon, "Muon (+ AdamW for embeddings, head, 1-D)")
TRAINMEM_STR(kOptimizerShampoo, "Shampoo (Distributed Shampoo)")
TRAINMEM_STR(kOptimizerSoap, "SOAP")

// ---- Method ------------------------------------------------------------------------------------
TRAINMEM_STR(kFramework, "Framework")
TRAINMEM_STR(kFrameworkHelp,
             "The training framework's recipe: what it shards, buffers and keeps by default")
TRAINMEM_STR(kFrameworkTorchtitan, "torchtitan")
TRAINMEM_STR(kFrameworkTorchtitanNpu, "torchtitan-npu (Ascend)")
TRAINMEM_STR(kFrameworkMegatron, "Megatron-LM")
TRAINMEM_STR(kFrameworkDeepspeed, "DeepSpeed")
TRAINMEM_STR(kFrameworkTorchtune, "torchtune")
TRAINMEM_STR(kMode, "Method")
TRAINMEM_STR(
    kModeHelp,
    "Detailed: what the framework actually allocates. The template's rule of thumb: its five "
    "formulas, exactly as written")
TRAINMEM_STR(kModeDetailed, "Detailed")
TRAINMEM_STR(kModeDetailedHelp, "Framework-aware: what each framework actually allocates")
TRAINMEM_STR(kModeTemplate, "Rule of thumb")
TRAINMEM_STR(kModeTemplateShort, "the template's rule of thumb")
TRAINMEM_STR(kModeDetailedShort, "detailed estimate")
TRAINMEM_STR(kModeTemplateHelp,
             "The Ascend OOM-analysis template's five formulas, with its nominal parameter counts")
TRAINMEM_STR(kTemporaryFraction, "Temporary share")
TRAINMEM_STR(kTemporaryFractionHelp,
             "Extra temporary buffers as a share of the rest (the template says 5\xE2\x80\x93"
             "15 %)")
TRAINMEM_STR(kBudgetFraction, "Usable budget")
TRAINMEM_STR(kBudgetFractionHelp,
             "Share of the device memory the estimate may use (the template's safety margin: 95 %)")

// ---- Results -----------------------------------------------------------------------------------
TRAINMEM_STR(kVerdictFits, "FITS")
TRAINMEM_STR(kVerdictLinkPartly, "LINK NOT FULLY READ")
TRAINMEM_STR(kHeadlineSpareTemplate, "%s of %s usable per device: %s to spare")
TRAINMEM_STR(kHeadlineOverTemplate, "%s of %s usable per device: %s over")
TRAINMEM_STR(kBudgetLineTemplate,
             "Usable = %d %% of the device's %s \xC2\xB7 peak allocated (PyTorch's "
             "max_memory_allocated) %s")
TRAINMEM_STR(kBudgetLessBuffersTemplate,
             ", less %s of MinimalAsyncEP buffers outside the allocator")
TRAINMEM_STR(kWhatToChangeTemplate, "What to change: %s \xE2\x86\x92 %s, %s")
TRAINMEM_STR(kClearFitNeedsDevicesTemplate,
             "Nothing here fits clear of the error band; %lld devices would (a layout search "
             "finds one).")
TRAINMEM_STR(kDevicesNeededTemplate,
             "No single change fits on these devices; %lld devices would (a layout search finds "
             "one that fits).")
TRAINMEM_STR(kShowLayoutsTemplate, "Show layouts on %lld devices")
TRAINMEM_STR(kNothingFitsAtAll,
             "Nothing fits, even on 16384 devices: a larger device or a smaller model is needed.")
TRAINMEM_STR(kLastValidEstimate,
             "Last valid estimate: an input is not valid (see the field marked in red).")
TRAINMEM_STR(kLinkFallbackNote,
             "This link could not be read in full (see above): what it could not say is filled "
             "with defaults, so this is not the link's estimate. Edit anything to make it yours.")
TRAINMEM_STR(kEstimatedWhatTemplate,
             "%s on %lld \xC3\x97 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s")
TRAINMEM_STR(kLayoutSingle, "one device, no sharding")
TRAINMEM_STR(kAcWordsNone, "no checkpointing")
TRAINMEM_STR(kAcWordsFull, "full checkpointing")
TRAINMEM_STR(kAcWordsSelective, "selective checkpointing")
TRAINMEM_STR(kAcWordsSelectiveOp, "selective checkpointing (per op)")
TRAINMEM_STR(kAcWordsSelectiveMegatron, "selective recompute (core attention)")
TRAINMEM_STR(kAcWordsSelectiveModules, "selective recompute (the --recompute-modules set)")
TRAINMEM_STR(kAcWordsSelectiveEvery, "selective checkpointing (1 block in %s)")
TRAINMEM_STR(kVerdictDoesNotFit, "DOES NOT FIT")
TRAINMEM_STR(kVerdictClose, "CLOSE TO THE LIMIT")
TRAINMEM_STR(kAccuracyBandTemplate,
             "Expected error: measured peaks came within \xE2\x88\x92%d %% / +%d %% of the "
             "estimate on %d %s runs%s")
TRAINMEM_STR(kAccuracyBandOneTemplate,
             "Expected error: the one measured %s run came within \xE2\x88\x92%d %% / +%d %% "
             "of the estimate%s")
TRAINMEM_STR(kAccuracyCloseSuffix, "; the total is within that band of the usable budget")
TRAINMEM_STR(kAccuracyUnknownTemplate,
             "Expected error: no measured %s runs yet, so the accuracy is unknown")
TRAINMEM_STR(kAccuracyTemplateMode, "The template's rule of thumb: its accuracy is not measured")
TRAINMEM_STR(kPillFits, "fits")
TRAINMEM_STR(kPillNoFit, "no fit")
TRAINMEM_STR(kPillClose, "close")
TRAINMEM_STR(kHostLineLead, "Host (CPU) memory per rank: ")
TRAINMEM_STR(kHostOptimizerPart, "optimizer states %s")
TRAINMEM_STR(kHostActivationsPart, "activations %s")
TRAINMEM_STR(kListSeparator, ", ")
TRAINMEM_STR(kLegendUsable, "\xC2\xA6 usable %s")
TRAINMEM_STR(kLegendDevice, "| device %s")
TRAINMEM_STR(kComponentParameters, "Parameters")
TRAINMEM_STR(kComponentGradients, "Gradients")
TRAINMEM_STR(kComponentOptimizer, "Optimizer states")
TRAINMEM_STR(kComponentActivations, "Activations")
TRAINMEM_STR(kComponentTemporary, "Temporary")
TRAINMEM_STR(kSectionBreakdown, "Per device")
TRAINMEM_STR(kColumnComponent, "Component")
TRAINMEM_STR(kColumnGiB, "GiB")
TRAINMEM_STR(kColumnGB, "GB")
TRAINMEM_STR(kColumnShare, "Share")
TRAINMEM_STR(kColumnGiBHelp,
             "Binary gigabytes, 2^30 bytes: what frameworks and OOM messages report")
TRAINMEM_STR(kColumnGBHelp, "Decimal gigabytes, 10^9 bytes: how memory is sold")
TRAINMEM_STR(kRowTotal, "Total")
TRAINMEM_STR(kPeakAtStepNote,
             "Peak at the optimizer step: the activations are freed by then; the step's fp32 "
             "gradient copies and temporaries are in Temporary.")
TRAINMEM_STR(kRowPeakAllocated, "Peak allocated")
TRAINMEM_STR(
    kRowPeakAllocatedHelp,
    "The total less the caching allocator's reserve: compare with torch.cuda.max_memory_allocated")
TRAINMEM_STR(kSectionAdvice, "Advice")
TRAINMEM_STR(kAdviceIntro,
             "Steps that lower the total, in the order practitioners reach for them; each row "
             "builds on the rows above it.")
TRAINMEM_STR(kAdviceSelectiveAc, "Turn on selective activation checkpointing (per-op policy)")
TRAINMEM_STR(kAdviceFullAc,
             "Turn on full activation checkpointing (every layer recomputed in backward)")
TRAINMEM_STR(kAdviceFusedStep,
             "Step Adam with the fused kernel (adamw_torch_fused / fused=True): no copy of the "
             "moments during the step")
TRAINMEM_STR(kAdviceDistributedOptimizer,
             "Use the distributed optimizer (fp32 master weights and moments sharded over data "
             "parallel ranks)")
TRAINMEM_STR(kAdviceSwapOptimizer, "Swap the optimizer states to host memory (swap_optimizer)")
TRAINMEM_STR(kAdviceOffloadOptimizer, "Offload the optimizer states and step to host memory")
TRAINMEM_STR(kAdviceTensorParallel, "Raise tensor parallelism from %lld to %lld")
TRAINMEM_STR(kAdvicePipelineParallel, "Raise pipeline parallelism from %lld to %lld")
TRAINMEM_STR(kAdviceExpertParallel, "Raise expert parallelism from %lld to %lld")
TRAINMEM_STR(kAdviceContextParallel,
             "Raise context parallelism from %lld to %lld (the sequence split over ranks)")
TRAINMEM_STR(kAdviceBatchSize, "Lower the local batch size from %lld to %lld")
TRAINMEM_STR(kAdviceSeqLen, "Shorten the sequence length from %lld to %lld")
TRAINMEM_STR(kAdviceZeroStageOptimizer,
             "Raise the ZeRO stage from %lld to %lld (shard the optimizer states over the "
             "data-parallel ranks)")
TRAINMEM_STR(kAdviceZeroStageGradients,
             "Raise the ZeRO stage from %lld to %lld (shard the optimizer states and gradients "
             "over the data-parallel ranks)")
TRAINMEM_STR(kAdviceZeroStageParameters,
             "Raise the ZeRO stage from %lld to %lld (shard the optimizer states, gradients and "
             "parameters over the data-parallel ranks)")
TRAINMEM_STR(kAdviceCombination, "Cheapest combination under the limit")
TRAINMEM_STR(kAdviceDevicesNeededTemplate,
             "None of these fits. %lld devices would: the layout search finds a layout that fits "
             "there, with this batch and sequence length.")
TRAINMEM_STR(kChangeAcOp, "per-op policy")
TRAINMEM_STR(kChangeAcEvery, "1 block in %lld")
TRAINMEM_STR(kChangeSwap, "swap_optimizer on")
TRAINMEM_STR(kChangeFusedStep, "fused optimizer step")
TRAINMEM_STR(kChangeOffload, "optimizer offload on")
TRAINMEM_STR(kChangeDistributedOptimizer, "distributed optimizer (ZeRO-1) on")
TRAINMEM_STR(kChangeZeroStage, "ZeRO stage %lld")
TRAINMEM_STR(kChangeFsdpRest, "data parallelism takes the remaining devices")
TRAINMEM_STR(kChangeFsdp, "FSDP %lld")
TRAINMEM_STR(kChangeTp, "tensor parallel %lld")
TRAINMEM_STR(kChangePp, "pipeline parallel %lld")
TRAINMEM_STR(kChangeEp, "expert parallel %lld")
TRAINMEM_STR(kChangeCp, "context parallel %lld")
TRAINMEM_STR(kChangeBatch, "local batch size %lld")
TRAINMEM_STR(kChangeSeq, "sequence length %lld")
TRAINMEM_STR(kChangeDevices, "%lld devices")
TRAINMEM_STR(kAdviceNoneNeeded, "It fits: no change needed.")
TRAINMEM_STR(kAdviceLinkPartly,
             "No advice while the link is not fully read: fix the link, or edit a field to make "
             "the config yours.")
TRAINMEM_STR(kAdviceFieldInvalid,
             "No advice while an input is not valid: fix the field marked in red first.")
TRAINMEM_STR(kAdviceCloseNoStep,
             "It fits, close to the limit: no step here lowers it further; leave headroom or "
             "add devices.")
TRAINMEM_STR(kApply, "Apply")
TRAINMEM_STR(kSectionModelFacts, "Model and layout")
TRAINMEM_STR(kParamsTotal, "Parameters, total")
TRAINMEM_STR(kParamsActive, "Active per token")
TRAINMEM_STR(kParamsActiveHelp,
             "Dense parameters plus the top-k routed experts (embedding and head included)")
TRAINMEM_STR(kParamsDense, "Dense")
TRAINMEM_STR(kParamsExpert, "Routed experts")
TRAINMEM_STR(kParamsEmbedding, "Embedding + head")
TRAINMEM_STR(kParamsVision, "Vision tower (not loaded)")
TRAINMEM_STR(kParamsVisionFrozen, "Vision tower (frozen: weights only)")
TRAINMEM_STR(kParamsVisionTrained, "Vision tower (trained, in the total)")
TRAINMEM_STR(kParamsVisionHelp,
             "The checkpoint's vision tower and projector, counted from vision_config. Training "
             "> Vision tower says what the job does with it; its image-token activations are not "
             "modelled")
TRAINMEM_STR(kVisionTower, "Vision tower")
TRAINMEM_STR(kVisionTowerHelp,
             "Not loaded: a text-only job on the language model. Frozen: the weights are loaded "
             "without gradients or optimizer states (LLaMA-Factory's freeze_vision_tower). "
             "Trained: weights, gradients and optimizer states (torchtitan's multimodal models)")
TRAINMEM_STR(kVisionTowerNone, "not loaded")
TRAINMEM_STR(kVisionTowerFrozen, "frozen")
TRAINMEM_STR(kVisionTowerTrained, "trained")
TRAINMEM_STR(kHostOptimizer, "Host memory: optimizer")
TRAINMEM_STR(kHostOptimizerHelp,
             "Per rank, in host (CPU) memory, for swap_optimizer or optimizer offload")
TRAINMEM_STR(kHostActivations, "Host memory: activations")
TRAINMEM_STR(kSectionActivations, "Activations: how they were derived")
TRAINMEM_STR(kActK, "K equivalent")
TRAINMEM_STR(kActKHelp,
             "Per-layer bytes / (B \xC3\x97 S \xC3\x97 H \xC3\x97 dtype bytes): the template's K, "
             "computed instead of assumed")
TRAINMEM_STR(kActBytesPerToken, "Per token per layer")
TRAINMEM_STR(kActPerLayer, "One layer, one microbatch")
TRAINMEM_STR(kActLayersKept, "Layers held")
TRAINMEM_STR(kActMicrobatches, "Microbatches in flight")
TRAINMEM_STR(kActSavedLayers, "Saved by all layers")
TRAINMEM_STR(kActRecompute, "Recomputed layer")
TRAINMEM_STR(kActEmbedding, "Embedding output")
TRAINMEM_STR(kActLogits, "Logits and loss")
TRAINMEM_STR(kActAttentionScores, "Attention scores")
TRAINMEM_STR(kActOffloaded, "Offloaded to host")
TRAINMEM_STR(kTemporaryDetails, "Temporary buffers")
TRAINMEM_STR(kTempGatheredParams, "Gathered parameters")
TRAINMEM_STR(kTempUnshardedGrads, "Unsharded gradients")
TRAINMEM_STR(kTempGradBuckets, "Gradient buckets")
TRAINMEM_STR(kTempWorkspaces, "GEMM workspaces")
TRAINMEM_STR(kTempOptimizerStep, "Optimizer step")
TRAINMEM_STR(kTempFraction, "Temporary share")
TRAINMEM_STR(kTempAllocatorReserve, "Allocator reserve")
TRAINMEM_STR(kTempAllocatorReserveHelp, "Caching-allocator fragmentation: reserved minus allocated")
TRAINMEM_STR(kSectionStages, "Pipeline stages")
TRAINMEM_STR(kColumnStage, "Stage")
TRAINMEM_STR(kColumnLayers, "Layers")
TRAINMEM_STR(kColumnPeakPhase, "Peak at")
TRAINMEM_STR(kStageEmbeddingTag, " + embedding")
TRAINMEM_STR(kStageHeadTag, " + head")
TRAINMEM_STR(kStageNoLayers, "no blocks")
TRAINMEM_STR(kStagesNote, "The headline figures are the highlighted (worst) stage's.")
TRAINMEM_STR(kSectionRoughRule, "Rule of thumb, for comparison")
TRAINMEM_STR(kSectionDetailedFootnote, "The framework-aware estimate, for comparison")
TRAINMEM_STR(
    kRoughRuleSaysTemplate,
    "The rule of thumb's five formulas (weights and gradients 2 + 2 bytes a parameter, split by "
    "TP and PP; AdamW's two fp32 moments, 8 bytes a parameter, split by TP and PP and also by "
    "the FSDP degree; K \xC2\xB7 s \xC2\xB7 h activations a layer) give %s for the same "
    "inputs. A quick rule, not a second verdict; it differs most in %s:")
TRAINMEM_STR(kDetailedSaysTemplate,
             "The framework-aware estimate gives %s for the same inputs; the rough rule differs "
             "most in %s:")
TRAINMEM_STR(kWhyParameters,
             "the rule counts each weight once in the parameter dtype (2 B for bf16); the "
             "framework keeps an fp32 master copy and gathers layers for compute.")
TRAINMEM_STR(kWhyGradients,
             "the rule counts gradients like the weights; the framework keeps them in fp32, "
             "buckets them for reduction, or frees them early.")
TRAINMEM_STR(kWhyOptimizer,
             "the rule takes AdamW's two fp32 moments split by TP \xC3\x97 PP \xC3\x97 FSDP "
             "and nothing else; the framework's sharding, master copy and swap differ.")
TRAINMEM_STR(kWhyActivations,
             "the rule uses K \xE2\x89\x88 10\xE2\x80\x93"
             "15 tensors per layer; this estimate "
             "counts what each layer saves under the chosen checkpointing, plus the logits.")
TRAINMEM_STR(kWhyTemporary,
             "the rule adds a flat 5\xE2\x80\x93"
             "15 %; this estimate sizes gathered layers, "
             "gradient buckets, the optimizer step and the allocator's reserve.")
TRAINMEM_STR(kColumnThisEstimate, "This estimate")
TRAINMEM_STR(kColumnRoughRule, "Rough rule")
TRAINMEM_STR(kColumnDetailed, "Framework-aware")
TRAINMEM_STR(kNominalTemplate,
             "The rough rule with the nominal %s parameters: %s; with the exact count %s: %s.")
TRAINMEM_STR(kSectionWarnings, "Warnings")

// ---- Measured in a run: a pasted or dropped log beside the estimate (issue #11) --------------
TRAINMEM_STR(kSectionMeasured, "Measured in a run")
TRAINMEM_STR(kMeasuredIntro,
             "Paste a training log (torchtitan, Megatron-LM, MindSpeed-LLM, DeepSpeed, Trainer, "
             "verl, ms-swift, axolotl, XTuner, …), "
             "torch.cuda.memory_summary(), nvidia-smi or npu-smi output, or drop the log file, a "
             "torch.profiler memory timeline (.json) or an allocator snapshot (.pickle) on the "
             "page.")
TRAINMEM_STR(kMeasuredCompare, "Compare with the estimate")
TRAINMEM_STR(kMeasuredClear, "Clear")
TRAINMEM_STR(kMeasuredPasteAnother, "Paste another log")
TRAINMEM_STR(kMeasuredConfigChangedTemplate,
             "Measured with another config (%s): the ratios compare the run with a job it did "
             "not run, and links leave the measurement out until the config is back.")
TRAINMEM_STR(kMeasuredRestoreConfig, "Back to the measured config")
TRAINMEM_STR(kColumnMeasuredMetric, "Metric")
TRAINMEM_STR(kColumnEstimate, "Estimate")
TRAINMEM_STR(kColumnMeasured, "Measured")
TRAINMEM_STR(kColumnRatio, "Ratio")
TRAINMEM_STR(kColumnRatioHelp,
             "measured \xC3\xB7 estimate: above 1 the run used more memory than estimated")
TRAINMEM_STR(kMetricReserved, "Max reserved")
TRAINMEM_STR(kMetricReservedHelp,
             "torch.cuda.max_memory_reserved, what an out-of-memory error sees; beside the "
             "estimate's total")
TRAINMEM_STR(kMetricMaxAllocated, "Max allocated")
TRAINMEM_STR(kMetricMaxAllocatedHelp,
             "torch.cuda.max_memory_allocated; beside the estimate's peak allocated")
TRAINMEM_STR(kMetricActive, "Peak active")
TRAINMEM_STR(kMetricActiveHelp, "peak active bytes; beside the estimate's peak allocated")
TRAINMEM_STR(kMetricAllocated, "Allocated between steps")
TRAINMEM_STR(kMetricAllocatedHelp,
             "memory allocated when the line was printed; beside parameters + gradients + "
             "optimizer states")
TRAINMEM_STR(kMetricDeviceUsed, "Device memory used")
TRAINMEM_STR(kMetricDeviceUsedHelp,
             "nvidia-smi / npu-smi: the whole process, with the runtime context and "
             "communication buffers the estimate leaves out; beside the estimate's total")
TRAINMEM_STR(kMeasuredRankTemplate, "rank %d \xE2\x86\x92 stage %d")
TRAINMEM_STR(kMeasuredComponentsTitle, "At the profile's peak")
TRAINMEM_STR(kMeasuredFromTemplate, "Read from %s (%s).")
TRAINMEM_STR(kMeasuredSnapshotTemplate,
             "Allocator snapshot, device %d: %s reserved, %s allocated; %.1f %% of the reserved "
             "memory is not allocated (cache and fragmentation), largest free block %s.")
TRAINMEM_STR(kMeasuredSkippedTemplate, "%lld line(s) not used:")
TRAINMEM_STR(kFeedbackMeasured, "Measurement read; the link carries it")

// ---- Explorer: tabs, layouts, memory map (issue #5) --------------------------------------------
TRAINMEM_STR(kTabEstimate, "Estimate")
TRAINMEM_STR(kTabLayouts, "Layouts")
TRAINMEM_STR(kTabMemoryMap, "Memory map")
TRAINMEM_STR(kEmbedLinkWarningTemplate, "\xE2\x9A\xA0 %s")
TRAINMEM_STR(kSectionLayouts, "Layouts that fit")
TRAINMEM_STR(kLayoutsIntroTemplate,
             "Every way to split the job over %lld \xC3\x97 %s that fits, cheapest step time "
             "first. Click a row to use it.")
TRAINMEM_STR(kLayoutsVaryAc, "Try checkpointing modes")
TRAINMEM_STR(kLayoutsVaryAcHelp,
             "Also try activation checkpointing none, selective (op) and full for each layout")
TRAINMEM_STR(kLayoutsVarySwap, "Try optimizer off the device")
TRAINMEM_STR(kLayoutsVarySwapHelp,
             "Also try the optimizer states in host memory (swap_optimizer or optimizer offload, "
             "as the framework does it)")
TRAINMEM_STR(kSearch, "Search")
TRAINMEM_STR(kSearchHelp, "Search again with these options")
TRAINMEM_STR(kSearching, "Searching\xE2\x80\xA6")
TRAINMEM_STR(kLayoutsCountsTemplate,
             "%lld shown \xC2\xB7 %lld valid candidates \xC2\xB7 %lld estimated \xC2\xB7 %.0f ms")
TRAINMEM_STR(kColumnRank, "#")
TRAINMEM_STR(kColumnRankHelp, "The search's order: cheapest estimated step time first")
TRAINMEM_STR(kColumnDpr, "DP rep")
TRAINMEM_STR(kColumnDp, "FSDP")
TRAINMEM_STR(kColumnTp, "TP")
TRAINMEM_STR(kColumnPp, "PP")
TRAINMEM_STR(kColumnCp, "CP")
TRAINMEM_STR(kColumnEp, "EP")
TRAINMEM_STR(kColumnEtp, "ETP")
TRAINMEM_STR(kColumnAc, "Checkpointing")
TRAINMEM_STR(kColumnPlacement, "Optimizer")
TRAINMEM_STR(kColumnPlacementHelp,
             "Where the optimizer states live: on the device, swapped to host (swap_optimizer), or "
             "offloaded")
TRAINMEM_STR(kColumnHeadroom, "Headroom")
TRAINMEM_STR(kColumnHeadroomHelp,
             "Usable memory less the total. Amber: within the estimate's error band of the "
             "limit, so the page's verdict for that layout is \"close to the limit\"")
TRAINMEM_STR(kColumnCost, "Cost")
TRAINMEM_STR(kColumnCostHelp,
             "Relative step time, 1.00\xC3\x97 = ideal; hover a row for what it is made of")
TRAINMEM_STR(kCostTemplate, "%.2f\xC3\x97")
TRAINMEM_STR(kAcSelectiveTemplate, "%s (%s)")
TRAINMEM_STR(kPlacementDevice, "on device")
TRAINMEM_STR(kPlacementSwap, "swap")
TRAINMEM_STR(kPlacementOffload, "offload")
TRAINMEM_STR(kLayoutRowHelp, "Click to use this layout")
TRAINMEM_STR(kSectionMemoryMap, "Memory map")
TRAINMEM_STR(kHeatmapGrid, "Grid")
TRAINMEM_STR(kGridBatchSeq, "Batch size \xC3\x97 sequence length")
TRAINMEM_STR(kGridTpPp, "Tensor \xC3\x97 pipeline parallel")
TRAINMEM_STR(kGridEpEtp, "Expert \xC3\x97 expert-tensor parallel")
TRAINMEM_STR(kComputing, "Computing\xE2\x80\xA6")
TRAINMEM_STR(kHeatmapCountsTemplate, "%d \xC3\x97 %d cells \xC2\xB7 %.0f ms")
TRAINMEM_STR(kHeatmapIntro,
             "Per-device total for each pair of values, everything else as on the left. Hover a "
             "cell for its breakdown; click it to use those two values.")
TRAINMEM_STR(kHeatmapNoValid, "No cell of this grid is a valid configuration for this job.")
TRAINMEM_STR(kHeatmapInvalidTemplate, "Not valid: %s")
TRAINMEM_STR(kHeatmapUsableTemplate, "of %s usable")
TRAINMEM_STR(kHeatmapClickHelp, "Click to use these two values")
TRAINMEM_STR(kHeatmapShaderErrorTemplate, "The memory map could not be drawn: %s")
TRAINMEM_STR(kHeatmapScaleTitle, "Total per device, GiB (log scale)")
TRAINMEM_STR(kHeatmapLegendBudgetTemplate, "usable budget %s")
TRAINMEM_STR(kHeatmapLegendCurrent, "current config")
TRAINMEM_STR(kHeatmapLegendInvalid, "not a valid configuration")
