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
TRAINMEM_STR(kCouldNotReadTemplate, "Could not read: %s")
TRAINMEM_STR(kDismiss, "Dismiss")
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

// ---- Embed card ----------------------------------------------------------------------------
TRAINMEM_STR(kEmbedTitleTemplate, "%s on %s \xC3\x97 %lld")
TRAINMEM_STR(kEmbedHeadlineTemplate, "%s of %s usable per device (capacity %s)")
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

// ---- Device ----------------------------------------------------------------------------------
TRAINMEM_STR(kCustomDeviceItem, "Custom device\xE2\x80\xA6")
TRAINMEM_STR(kCustomDevicePreview, "Custom")
TRAINMEM_STR(kDeviceName, "Name")
TRAINMEM_STR(kCustomDeviceNameTemplate, "%s (custom)")
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
TRAINMEM_STR(kDpShardHelp,
             "FSDP / ZeRO-3 sharding degree; -1 takes the ranks left over by the other degrees")
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
TRAINMEM_STR(kPpSchedule, "PP schedule")
TRAINMEM_STR(kPpScheduleHelp, "Decides how many microbatches' activations a stage holds at once")
TRAINMEM_STR(kPpLayersPerStage, "Layers per stage")
TRAINMEM_STR(kPpLayersPerStageHelp, "0 splits the layers evenly")
TRAINMEM_STR(kEvenSplit, "even split")
TRAINMEM_STR(kZeroStage, "ZeRO stage")
TRAINMEM_STR(kZeroStageHelp, "DeepSpeed ZeRO stage; for Megatron, 1 = distributed optimizer")
TRAINMEM_STR(kLayoutLineTemplate,
             "dp_replicate %lld \xC3\x97 dp_shard %lld \xC3\x97 cp %lld \xC3\x97 tp %lld \xC3\x97 "
             "pp %lld = %lld ranks")
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
TRAINMEM_STR(kPrecision, "Parameter dtype")
TRAINMEM_STR(kPrecisionHelp, "Mixed-precision parameter dtype used for compute")
TRAINMEM_STR(kFp8, "FP8 linears")
TRAINMEM_STR(kFp8Help, "Float8 matmuls (torchao / Transformer Engine); master weights stay in fp32")
TRAINMEM_STR(kAttention, "Attention")
TRAINMEM_STR(kAttentionHelp,
             "Eager attention keeps the seq \xC3\x97 seq scores per head for backward")
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
TRAINMEM_STR(kAcOptionEvery, "%s (every %s-th block)")
TRAINMEM_STR(kAcOffload, "Offload to host")
TRAINMEM_STR(kAcOffloadHelp, "Saved activations are moved to host memory")
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
TRAINMEM_STR(kSwapTimes, "Swap slices")
TRAINMEM_STR(kSwapTimesHelp,
             "swap_optimizer_times: the device holds one slice of the moments at a time")
TRAINMEM_STR(kEarlyStep, "Step in backward")
TRAINMEM_STR(kEarlyStepHelp,
             "Optimizer step fused into backward, per parameter: full gradients are never all held")
TRAINMEM_STR(kOptimizerOffload, "Offload to host")
TRAINMEM_STR(kOptimizerOffloadHelp, "Optimizer states and step on the host (ZeRO-Offload)")
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
TRAINMEM_STR(kModeHelp, "Template: the seed's formulas exactly. Detailed: framework-aware")
TRAINMEM_STR(kModeDetailed, "Detailed")
TRAINMEM_STR(kModeDetailedHelp, "Framework-aware: what each framework actually allocates")
TRAINMEM_STR(kModeTemplate, "Template")
TRAINMEM_STR(kModeTemplateHelp,
             "The seed template's five formulas, with its nominal parameter counts")
TRAINMEM_STR(kTemporaryFraction, "Temporary share")
TRAINMEM_STR(kTemporaryFractionHelp,
             "Extra temporary buffers as a share of the rest (the seed says 5\xE2\x80\x93"
             "15 %)")
TRAINMEM_STR(kBudgetFraction, "Usable budget")
TRAINMEM_STR(kBudgetFractionHelp,
             "Share of the device memory the estimate may use (the seed's safety margin: 95 %)")

// ---- Results -----------------------------------------------------------------------------------
TRAINMEM_STR(kVerdictFits, "FITS")
TRAINMEM_STR(kVerdictDoesNotFit, "DOES NOT FIT")
TRAINMEM_STR(kPillFits, "fits")
TRAINMEM_STR(kPillNoFit, "no fit")
TRAINMEM_STR(kVerdictTotalTemplate, "%s of %s usable per device")
TRAINMEM_STR(kHeadroomTemplate,
             "Headroom %s \xC2\xB7 budget %d %% of %s \xC2\xB7 peak allocated %s")
TRAINMEM_STR(kOverBudgetTemplate,
             "Over budget by %s \xC2\xB7 budget %d %% of %s \xC2\xB7 peak allocated %s")
TRAINMEM_STR(kSubjectTemplate, "%s on %s \xC3\x97 %lld \xC2\xB7 %s method")
TRAINMEM_STR(kHostLineLead, "Host (CPU) memory per rank: ")
TRAINMEM_STR(kHostOptimizerPart, "optimizer states %s")
TRAINMEM_STR(kHostActivationsPart, "activations %s")
TRAINMEM_STR(kListSeparator, ", ")
TRAINMEM_STR(kInputProblemsTitle,
             "Some inputs are not valid; the estimate below is the last valid one:")
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
TRAINMEM_STR(kRowPeakAllocated, "Peak allocated")
TRAINMEM_STR(
    kRowPeakAllocatedHelp,
    "The total less the caching allocator's reserve: compare with torch.cuda.max_memory_allocated")
TRAINMEM_STR(kRowVerdict, "Verdict")
TRAINMEM_STR(kSectionAdvice, "Advice")
TRAINMEM_STR(kAdviceIntro,
             "Cheapest changes first (the seed's order); each row is the estimate after that step.")
TRAINMEM_STR(kAdviceNoneNeeded, "It fits: no change needed.")
TRAINMEM_STR(
    kAdviceNoneFound,
    "No single change in the ladder makes it fit; more devices or a smaller model are needed.")
TRAINMEM_STR(
    kAdviceNoStepFits,
    "None of these steps fits: more devices, a larger device or a smaller model are needed.")
TRAINMEM_STR(kApply, "Apply")
TRAINMEM_STR(kSectionModelFacts, "Model and layout")
TRAINMEM_STR(kParamsTotal, "Parameters, total")
TRAINMEM_STR(kParamsActive, "Active per token")
TRAINMEM_STR(kParamsActiveHelp,
             "Dense parameters plus the top-k routed experts (embedding and head included)")
TRAINMEM_STR(kParamsDense, "Dense")
TRAINMEM_STR(kParamsExpert, "Routed experts")
TRAINMEM_STR(kParamsEmbedding, "Embedding + head")
TRAINMEM_STR(kHostOptimizer, "Host memory: optimizer")
TRAINMEM_STR(kHostOptimizerHelp,
             "Per rank, in host (CPU) memory, for swap_optimizer or optimizer offload")
TRAINMEM_STR(kHostActivations, "Host memory: activations")
TRAINMEM_STR(kSectionActivations, "Activations: how they were derived")
TRAINMEM_STR(kActK, "K equivalent")
TRAINMEM_STR(kActKHelp,
             "Per-layer bytes / (B \xC3\x97 S \xC3\x97 H \xC3\x97 dtype bytes): the seed's K, "
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
TRAINMEM_STR(kTempOptimizerStep, "Optimizer step")
TRAINMEM_STR(kTempCommunication, "Communication")
TRAINMEM_STR(kTempFraction, "Temporary share")
TRAINMEM_STR(kTempAllocatorReserve, "Allocator reserve")
TRAINMEM_STR(kTempAllocatorReserveHelp, "Caching-allocator fragmentation: reserved minus allocated")
TRAINMEM_STR(kSectionStages, "Pipeline stages")
TRAINMEM_STR(kColumnStage, "Stage")
TRAINMEM_STR(kColumnLayers, "Layers")
TRAINMEM_STR(kColumnPeakPhase, "Peak at")
TRAINMEM_STR(kStageEmbeddingTag, " + embedding")
TRAINMEM_STR(kStageHeadTag, " + head")
TRAINMEM_STR(kStagesNote, "The headline figures are the highlighted (worst) stage's.")
TRAINMEM_STR(kSectionCompare, "Template vs detailed")
TRAINMEM_STR(kCompareIntro,
             "The same inputs through the seed's template formulas and the framework-aware model "
             "(\xE2\x97\x8F = the method in use).")
TRAINMEM_STR(kNominalTemplate,
             "Template with the nominal %s parameters: %s; with the exact count %s: %s.")
TRAINMEM_STR(kSectionWarnings, "Warnings")

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
