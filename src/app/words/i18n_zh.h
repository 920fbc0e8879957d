// The page's strings in Chinese, in the field's own terms as the seed writes them (显存,
// 激活重计算, 优化器状态, 流水线并行, 张量并行, 数据并行, 专家并行, 序列并行, 梯度 …). One line per
// string: TRAINMEM_ZH(id, "text"), keyed by the ids of i18n_table.h; a missing id falls back to
// English. Templates keep the English conversions in the same order. The CJK font subset is built
// from the characters of this file (assets/fonts/make_cjk_subset.py): a character used here is one
// the page can draw. No include guard on purpose (included once, by i18n.cpp).

// ---- Page ----------------------------------------------------------------------------------
TRAINMEM_ZH(kAppTagline, "训练前估算每卡显存")
TRAINMEM_ZH(kDocumentTitle, "%s 在 %s 上 — trainmem")
TRAINMEM_ZH(kSummaryTemplate, "%s 在 %s 上：%s / 可用 %s — %s")
TRAINMEM_ZH(kSummaryFits, "放得下")
TRAINMEM_ZH(kSummaryDoesNotFit, "放不下")
TRAINMEM_ZH(kSummaryClose, "接近上限")
TRAINMEM_ZH(kSummaryLinkPartly, "链接未能完全读取；不给出结论")
TRAINMEM_ZH(kDismiss, "关闭")
TRAINMEM_ZH(kLinkKeyProblemTemplate, "%s：%s")
TRAINMEM_ZH(kLinkReasonExpectsTemplate, "%s（%s：%s）")
TRAINMEM_ZH(kLanguageSwitch, "English")
TRAINMEM_ZH(kLanguageSwitchHelp, "Switch to English (英文)")
TRAINMEM_ZH(kErrNotJsonObject, "不是 JSON 对象；请粘贴完整的 config.json")

// ---- Share and export ----------------------------------------------------------------------
TRAINMEM_ZH(kCopyLink, "复制链接")
TRAINMEM_ZH(kCopyLinkHelp, "复制一个能打开此估算的链接")
TRAINMEM_ZH(kCopyEmbedSnippet, "复制嵌入代码")
TRAINMEM_ZH(kCopyEmbedSnippetHelp, "复制一段 <iframe>，在文档中显示此估算的只读小卡片")
TRAINMEM_ZH(kExportMenu, "导出 \xE2\x96\xBC")
TRAINMEM_ZH(kCopy, "复制")
TRAINMEM_ZH(kDownload, "下载")
TRAINMEM_ZH(kFeedbackCopied, "已复制 \xE2\x9C\x93")
TRAINMEM_ZH(kFeedbackDownloaded, "已下载 \xE2\x9C\x93")
TRAINMEM_ZH(kFeedbackLinkCopied, "链接已复制 \xE2\x9C\x93")
TRAINMEM_ZH(kFeedbackSnippetCopied, "嵌入代码已复制 \xE2\x9C\x93")
TRAINMEM_ZH(kFeedbackApplied, "已应用：%s")
TRAINMEM_ZH(kFeedbackConfigUsed, "已载入 config.json \xE2\x9C\x93")

// ---- Import (panel_import.cpp) ----------------------------------------------------------------
TRAINMEM_ZH(kSectionImport, "导入训练任务文件")
TRAINMEM_ZH(kImportHint,
            "拖放、粘贴或打开启动任务所用的文件（torchtitan、Megatron、MindSpeed-LLM、DeepSpeed、"
            "Hugging Face Trainer、LLaMA-Factory、axolotl、ms-swift、torchtune）及其引用的文件。"
            "文件只在本页读取，不会运行，"
            "也不会上传。")
TRAINMEM_ZH(kImportOpenFiles, "打开文件\xE2\x80\xA6")
TRAINMEM_ZH(kImportOpenFilesHelp, "从本机选择一个或多个任务文件")
TRAINMEM_ZH(kImportPaste, "粘贴")
TRAINMEM_ZH(kImportPasteHelp, "把剪贴板中的文本作为任务文件导入")
TRAINMEM_ZH(kImportClear, "清除")
TRAINMEM_ZH(kImportReadingTemplate, "正在读取 %d 个文件\xE2\x80\xA6")
TRAINMEM_ZH(kImportRecipe, "配置函数")
TRAINMEM_ZH(kImportRecipeHelp, "该文件含多个配置函数；torchtitan 运行 --config 指定的那个")
TRAINMEM_ZH(kImportSummaryTemplate, "读取 %d 项，忽略 %d 项，缺少 %d 项")
TRAINMEM_ZH(kImportKeptTemplate, "沿用页面上的值（文件中未写明）：%s")
TRAINMEM_ZH(kImportApplied, "已设为当前配置，分享链接已更新。")
TRAINMEM_ZH(kImportNotApplied, "尚未估算：请补全缺少的值。")
TRAINMEM_ZH(kImportMissing, "缺少")
TRAINMEM_ZH(kImportAssumedTemplate, "暂按 %s")
TRAINMEM_ZH(kImportApply, "应用")
TRAINMEM_ZH(kImportApplyHelp, "使用上面填写的值（JSON 或文本，同 --set）")
TRAINMEM_ZH(kImportProblems, "不一致之处")
TRAINMEM_ZH(kImportWantedTemplate,
            "任务引用了这里没有提供的文件：%s。补上它们（「打开文件\xE2\x80\xA6」或拖到页面上），"
            "会与其他文件一起读取。")
TRAINMEM_ZH(kImportReadTemplate, "已读取（%d）")
TRAINMEM_ZH(kImportIgnoredTemplate, "已忽略（%d）")
TRAINMEM_ZH(kImportNotesTemplate, "处理说明（%d）")
TRAINMEM_ZH(kImportMeasurementsTemplate, "%d 个测量文件已交给对比视图")
TRAINMEM_ZH(
    kImportModelOnly,
    "config.json 只描述模型：已替换模型，并保留本页作业的其余部分（设备、卡数、框架、batch、"
    "并行方式）")

// ---- Embed card ----------------------------------------------------------------------------
TRAINMEM_ZH(kEmbedTitleTemplate, "%s，%lld \xC3\x97 %s")
TRAINMEM_ZH(kEmbedHowTemplate, "%s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s")
TRAINMEM_ZH(kBatchWords, "每卡 batch %lld \xC3\x97 %lld 个 token")
TRAINMEM_ZH(kMicroBatchWords,
            "micro-batch %lld \xC3\x97 %lld 个 token，每个数据并行 rank 每步 %lld 个样本")
TRAINMEM_ZH(kEmbedFrameTitleTemplate, "trainmem 显存估算：%s")
TRAINMEM_ZH(kOpenInTrainmem, "在 trainmem 中打开 \xE2\x86\x97")
TRAINMEM_ZH(kEmbedFooter, "估算值，非实测")

// ---- Input sections --------------------------------------------------------------------------
TRAINMEM_ZH(kSectionModel, "模型")
TRAINMEM_ZH(kSectionDevice, "设备与集群")
TRAINMEM_ZH(kSectionParallelism, "并行策略")
TRAINMEM_ZH(kSectionTraining, "训练")
TRAINMEM_ZH(kSectionActivationCheckpoint, "激活重计算与编译")
TRAINMEM_ZH(kSectionOptimizer, "优化器")
TRAINMEM_ZH(kSectionMethod, "框架与估算方法")
TRAINMEM_ZH(kFrameworkDefault, "框架默认")
TRAINMEM_ZH(kHalve, "减半")
TRAINMEM_ZH(kDouble, "加倍")
TRAINMEM_ZH(kDecrease, "减一")
TRAINMEM_ZH(kIncrease, "加一")

// ---- Model -----------------------------------------------------------------------------------
TRAINMEM_ZH(kSearchModels, "搜索模型（名称、系列、规模）")
TRAINMEM_ZH(kModelComboHelp, "预置模型，或自定义结构 / Hugging Face config.json")
TRAINMEM_ZH(kCustomModelItem, "自定义模型\xE2\x80\xA6")
TRAINMEM_ZH(kCustomModelName, "自定义模型")
TRAINMEM_ZH(kEditArchitecture, "编辑结构 / 粘贴 config.json\xE2\x80\xA6")
TRAINMEM_ZH(kArchitectureFields, "模型结构（config.json 字段）")
TRAINMEM_ZH(kPasteConfigJson, "粘贴 Hugging Face config.json")
TRAINMEM_ZH(kPasteConfigHelp, "粘贴模型的 config.json（在框内按 Ctrl+V，或点按钮），然后使用。")
TRAINMEM_ZH(kUseConfigJson, "使用此 config.json")
TRAINMEM_ZH(kPasteFromClipboard, "从剪贴板粘贴")
TRAINMEM_ZH(kBackToPresets, "\xE2\x86\x90 返回预置模型")
TRAINMEM_ZH(kArchLineTemplate,
            "%lld 层 \xC2\xB7 hidden %lld \xC2\xB7 %lld 个注意力头（%lld 个 KV）\xC2\xB7 词表 %lld")
TRAINMEM_ZH(kArchMoeTemplate, " \xC2\xB7 %lld 个专家，top-%lld")
TRAINMEM_ZH(kArchSlidingHeadsTemplate, " \xC2\xB7 滑动窗口层 %lld 个注意力头")

// ---- Device ----------------------------------------------------------------------------------
TRAINMEM_ZH(kCustomDeviceItem, "自定义设备\xE2\x80\xA6")
TRAINMEM_ZH(kDeviceName, "名称")
TRAINMEM_ZH(kCustomDeviceNameTemplate, "%s（自定义）")
TRAINMEM_ZH(kCustomWord, "自定义")
TRAINMEM_ZH(kDeviceMemory, "显存")
TRAINMEM_ZH(kDeviceMemoryHelp,
            "框架可见的显存（torch.cuda.mem_get_info 的 total），单位 GiB；通常小于标称 GB")
TRAINMEM_ZH(kDeviceNoteTemplate, "标称 %.0f GB \xC2\xB7 框架可见 %.1f GiB")
TRAINMEM_ZH(kWorldSize, "卡数（world size）")
TRAINMEM_ZH(kWorldSizeHelp, "作业使用的设备（rank）总数")

// ---- Parallelism -----------------------------------------------------------------------------
TRAINMEM_ZH(kDpReplicate, "数据并行副本")
TRAINMEM_ZH(kDpReplicateHelp,
            "数据并行副本数（DDP / HSDP 外层维度）：每个副本持有一份完整的分片状态")
TRAINMEM_ZH(kDpShard, "数据并行分片（FSDP）")
TRAINMEM_ZH(kDpShardHelp, "FSDP / ZeRO-3 分片度；「其余全部」（配置中为 -1）取其他并行度用剩的设备")
TRAINMEM_ZH(kTheRest, "其余全部")
TRAINMEM_ZH(kTheRestTemplate, "其余全部：%lld")
TRAINMEM_ZH(kTensorParallel, "张量并行")
TRAINMEM_ZH(kTensorParallelHelp, "把每层的矩阵切到这么多设备上；须整除注意力头数")
TRAINMEM_ZH(kPipelineParallel, "流水线并行")
TRAINMEM_ZH(kPipelineParallelHelp, "把模型各层分成这么多个流水线阶段")
TRAINMEM_ZH(kContextParallel, "上下文并行")
TRAINMEM_ZH(kContextParallelHelp, "把序列切到这么多设备上（ring attention）")
TRAINMEM_ZH(kExpertParallel, "专家并行")
TRAINMEM_ZH(kExpertParallelHelp, "把路由专家分布到这么多设备上；须整除专家数")
TRAINMEM_ZH(kExpertTensorParallel, "专家张量并行")
TRAINMEM_ZH(kExpertTensorParallelHelp, "每个专家内部的张量并行（1 或等于张量并行度）")
TRAINMEM_ZH(kSequenceParallel, "序列并行")
TRAINMEM_ZH(kSequenceParallelHelp, "在张量并行组内切分 norm/dropout 的激活")
TRAINMEM_ZH(kPpMicrobatch, "流水线微批大小")
TRAINMEM_ZH(kPpMicrobatchHelp, "每个流水线微批的样本数")
TRAINMEM_ZH(kEpComm, "专家并行分发器")
TRAINMEM_ZH(
    kEpCommHelp,
    "torchtitan 的 expert_parallel_comm_backend：路由后的 token 如何在专家并行卡之间传递。DeepEP "
    "和 HybridEP 自带的缓冲未建模；MinimalAsyncEP 的接收缓冲在分配器之外，从可用显存中扣除")
TRAINMEM_ZH(kEpCommStandard, "标准 all-to-all")
TRAINMEM_ZH(kPpSchedule, "流水线调度")
TRAINMEM_ZH(kPpScheduleHelp, "决定一个阶段同时保存多少个微批的激活")
TRAINMEM_ZH(kPpLayersPerStage, "每阶段层数")
TRAINMEM_ZH(kPpLayersPerStageHelp, "「均分」（配置中为 0）把各层平均分到各阶段")
TRAINMEM_ZH(kEvenSplit, "均分")
TRAINMEM_ZH(kVpMicrobatchGroup, "微批分组")
TRAINMEM_ZH(kVpMicrobatchGroupHelp,
            "交错调度：每个模型分块连续处理的微批数，之后才轮到下一个分块（Megatron "
            "--microbatch-group-size-per-virtual-pipeline-stage）；「PP」（0）为默认值。分组越大，"
            "同时在途的分块越多")
TRAINMEM_ZH(
    kPpGatheredNote,
    "启用流水线并行时，torchtitan 在所有微批期间保持每个阶段的参数处于聚合状态（FSDP 前向后不再"
    "重新分片），因此增大流水线并行度可能使总量上升：未分片的阶段权重超过了切分节省的部分。")
TRAINMEM_ZH(kZeroStage, "ZeRO 阶段")
TRAINMEM_ZH(kZeroStageHelp, "DeepSpeed ZeRO 阶段；Megatron 中 1 = 分布式优化器")
TRAINMEM_ZH(kLayoutLineTemplate,
            "dp_replicate %lld \xC3\x97 dp_shard %lld \xC3\x97 cp %lld \xC3\x97 tp %lld \xC3\x97 "
            "pp %lld = %lld 个 rank")
TRAINMEM_ZH(kLayoutLineOneGroupTemplate,
            "dp %lld \xC3\x97 cp %lld \xC3\x97 tp %lld \xC3\x97 pp %lld = %lld 个 rank")
TRAINMEM_ZH(kScheduleInterleaved, "交错 1F1B")
TRAINMEM_ZH(kScheduleZeroBubble, "零气泡")

// ---- Training ----------------------------------------------------------------------------------
TRAINMEM_ZH(kLocalBatchSize, "单卡 batch 大小")
TRAINMEM_ZH(kLocalBatchSizeHelp, "每卡每步的样本数（local_batch_size）")
TRAINMEM_ZH(kSeqLen, "序列长度")
TRAINMEM_ZH(kSeqLenHelp, "每个样本的 token 数（seq_len）")
TRAINMEM_ZH(kLossChunks, "损失分块数")
TRAINMEM_ZH(kLossChunksHelp, "分块交叉熵：fp32 logits 每次只生成这么多分之一")
TRAINMEM_ZH(kLoraRank, "LoRA 秩")
TRAINMEM_ZH(kLoraWords, "LoRA 秩 %lld，基座权重冻结")
TRAINMEM_ZH(kLoraRankHelp,
            "0 表示全部权重参与训练。否则在各层的全部二维权重上训练秩为 r 的适配器，基座权重冻结："
            "它们没有梯度、优化器状态和 fp32 主副本")
TRAINMEM_ZH(kBaseQuant, "基座权重")
TRAINMEM_ZH(
    kBaseQuantHelp,
    "QLoRA：冻结的各层线性权重如何存储（Hugging Face Trainer 上的 bitsandbytes，torchtune 的 "
    "torchao NF4）。16 位：按框架存储参数的方式。8 位：LLM.int8，每个权重 1 字节。NF4：半字节，"
    "每 64 个一个 fp32 缩放（0.56 B）；双重量化时缩放也是 8 位（0.52 B）。词表、输出头和归一化"
    "保持 16 位")
TRAINMEM_ZH(kBaseQuantNone, "16 位（不量化）")
TRAINMEM_ZH(kBaseQuantInt8, "8 位（LLM.int8）")
TRAINMEM_ZH(kBaseQuantNf4, "4 位 NF4")
TRAINMEM_ZH(kBaseQuantNf4Double, "4 位 NF4，双重量化")
TRAINMEM_ZH(kBaseQuantWords, "%s 基座")
TRAINMEM_ZH(kPrecision, "计算精度")
TRAINMEM_ZH(
    kPrecisionHelp,
    "mixed_precision_param：前向与反向计算时各层转换成的数据类型。每个参数实际占多少显存取决于"
    "框架的主权重副本（见下方）。")
TRAINMEM_ZH(kPrecisionNoteFsdp,
            "fp32 主权重和梯度（每个参数各 4 B，由 FSDP 分片）；计算时各层转换为此精度")
TRAINMEM_ZH(kPrecisionNoteFp32, "fp32 权重和梯度，fp32 计算")
TRAINMEM_ZH(kStateDtypeFullBf16,
            "全 bf16 训练：优化器状态随 bf16 参数创建，同为 bf16（上面所选精度不起作用）")
TRAINMEM_ZH(kPrecisionNoteFullBf16,
            "bf16 权重、梯度和优化器状态（每个参数各 2 B，按框架的方式分片）：没有 fp32 主权重副本")
TRAINMEM_ZH(kPrecisionNoteMegatron,
            "权重为此精度（2 B），fp32 主梯度（4 B），fp32 主权重副本随优化器状态保存")
TRAINMEM_ZH(kPrecisionNoteDeepspeed,
            "权重和梯度为此精度（各 2 B）；fp32 主权重副本随优化器状态保存")
TRAINMEM_ZH(kPrecisionNoteTorchtune, "权重、梯度和优化器状态都是此精度：没有 fp32 主权重副本")
TRAINMEM_ZH(kFp8, "FP8 线性层")
TRAINMEM_ZH(kFp8Help, "Float8 矩阵乘（torchao / Transformer Engine）；主权重仍为 fp32")
TRAINMEM_ZH(kNvfp4Layers, "NVFP4 层数")
TRAINMEM_ZH(kNvfp4LayersHelp,
            "从第一层起、线性层使用 NVFP4 矩阵乘的解码层数（torchtitan 的 NVFP4 转换器，Blackwell "
            "GPU）。其配方让最后 15% 的层与 LM head 保持 bf16：Llama 3 8B 的 32 层中转换 27 层。"
            "-1 表示全部层。逐算子选择性重计算下，这些层不保存线性层输出")
TRAINMEM_ZH(kNvfp4None, "无")
TRAINMEM_ZH(kNvfp4All, "全部")
TRAINMEM_ZH(kFullBf16, "全 bf16 训练")
TRAINMEM_ZH(kFullBf16Help,
            "torchtitan training.dtype = \"bfloat16\"，或不用 DeepSpeed 的 Hugging Face Trainer "
            "直接训练以 bf16 加载的模型（ms-swift 全参微调）：参数、梯度和优化器状态都是 bf16，"
            "没有 fp32 主权重副本")
TRAINMEM_ZH(kDsaFused, "DSA 融合算子")
TRAINMEM_ZH(kDsaFusedHelp,
            "DeepSeek-V3.2 的 lightning indexer 及其损失使用融合算子（MindSpeed "
            "--use-fused-lightning-indexer 加 --use-sparse-flash-attn）。关闭时每层为 indexer "
            "及其损失生成 fp32 的 seq x seq 分数")
TRAINMEM_ZH(kAttention, "注意力实现")
TRAINMEM_ZH(kAttentionHelp,
            "eager 注意力为反向保存每个头的 seq \xC3\x97 seq 分数。Flex 是 torchtitan "
            "的默认后端（llama3、qwen3、deepseek_v3）：按算子选择性重计算且未启用 torch.compile "
            "时，还会额外保存每层的 q 和 k")
TRAINMEM_ZH(kDropout, "Dropout")
TRAINMEM_ZH(kDropoutHelp, "Dropout 为每个激活保存掩码；各框架默认值不同")
TRAINMEM_ZH(kMtp, "训练 MTP 模块")
TRAINMEM_ZH(kMtpHelp, "同时训练模型的多 token 预测模块（DeepSeek）")
TRAINMEM_ZH(kAcMode, "激活重计算")
TRAINMEM_ZH(kAcModeHelp, "激活重计算：反向时重新计算激活，而不是一直保存")
TRAINMEM_ZH(kAcOption, "选择性选项")
TRAINMEM_ZH(kAcOptionHelp, "「op」：按算子策略保存矩阵乘/注意力输出；k：每 k 个 block 重计算一个")
TRAINMEM_ZH(kAcOptionOp, "op（按算子策略）")
TRAINMEM_ZH(kRecomputeNumLayers, "每段重计算的层数")
TRAINMEM_ZH(
    kRecomputeNumLayersHelp,
    "Megatron --recompute-method block --recompute-num-layers N：每个流水段（每个虚拟段）只重计算"
    "前 N 层，其余层保留全部激活。全部：每层都重计算（--recompute-method uniform）")
TRAINMEM_ZH(kAcOptionEvery, "%s（每 %s 个 block）")
TRAINMEM_ZH(kAcOffload, "卸载到主机")
TRAINMEM_ZH(kAcOffloadHelp, "保存的激活移到主机内存")
TRAINMEM_ZH(kSwapAttentionHelp,
            "MindSpeed --swap-attention：每层的归一化和注意力为反向保存的张量换出到主机内存，"
            "反向前预取回来；MLP 保存的张量留在设备上")
TRAINMEM_ZH(kCompileHelp, "编译后的模型融合逐元素算子，保存的激活更少")
TRAINMEM_ZH(kCompileComponents, "编译对象")
TRAINMEM_ZH(kCompileComponentsHelp, "torchtitan [compile] components")
TRAINMEM_ZH(kCompileModel, "模型")
TRAINMEM_ZH(kCompileLoss, "损失")
TRAINMEM_ZH(kAcNone, "无重计算")
TRAINMEM_ZH(kAcSelective, "选择性重计算")
TRAINMEM_ZH(kAcFull, "全量重计算")

// ---- Optimizer ---------------------------------------------------------------------------------
TRAINMEM_ZH(kOptimizer, "优化器")
TRAINMEM_ZH(kOptimizerHelp, "决定每个参数有几个状态张量")
TRAINMEM_ZH(kStateDtype, "状态精度")
TRAINMEM_ZH(kStateDtypeHelp, "优化器状态（一阶矩、二阶矩）的数据类型")
TRAINMEM_ZH(kMomentum, "动量")
TRAINMEM_ZH(kMomentumHelp, "0 表示不保存动量缓冲")
TRAINMEM_ZH(kSwapOptimizerHelp,
            "torchtitan-npu / MindSpeed：Adam 的一阶矩和二阶矩放在主机内存，分片换入")
TRAINMEM_ZH(kReuseFp32ParamHelp,
            "MindSpeed --reuse-fp32-param：bf16 且使用分布式优化器时，fp32 主权重与 bf16 "
            "参数共用缓冲区（每个参数 2 字节，而不是 4 字节）")
TRAINMEM_ZH(kSwapTimes, "换入分片数")
TRAINMEM_ZH(kSwapTimesHelp, "swap_optimizer_times：设备每次只保存一片优化器状态")
TRAINMEM_ZH(kStepImpl, "更新内核")
TRAINMEM_ZH(kStepImplHelp,
            "torch.optim 的 Adam 如何执行更新：fused（单个内核，无临时张量；torchtitan 与当前 "
            "Hugging Face 的默认，DeepSpeed 的 FusedAdam）、foreach（未指定 fused 时 torch 的默认，"
            "即 adamw_torch：更新时复制一份全部二阶矩）或 for-loop（逐个张量）")
TRAINMEM_ZH(kStepImplFused, "fused")
TRAINMEM_ZH(kStepImplForeach, "foreach（+1 份状态）")
TRAINMEM_ZH(kStepImplForLoop, "for-loop")
TRAINMEM_ZH(kEarlyStep, "反向中更新")
TRAINMEM_ZH(kEarlyStepHelp, "优化器更新融合进反向、逐参数进行：不会同时保存全部梯度")
TRAINMEM_ZH(kOptimizerOffload, "卸载到主机")
TRAINMEM_ZH(kOptimizerOffloadHelp,
            "优化器状态和更新放在主机上：DeepSpeed ZeRO-Offload、Megatron-Core "
            "--optimizer-cpu-offload、torchtune 的 CPU 卸载优化器")
TRAINMEM_ZH(kNotInFramework, "%s 没有这个选项：按有此选项估算")
TRAINMEM_ZH(kNoteFrameworkSwitched,
            "框架已从 %s 切换为 %s，以适配 %s（torchtitan-npu 是昇腾上的 torchtitan）。")
TRAINMEM_ZH(kNoteSwapOff, " 已关闭 swap_optimizer：%s 没有此选项。")
TRAINMEM_ZH(kNoteOffloadOff, " 已关闭优化器卸载：%s 没有此选项。")

// ---- Method ------------------------------------------------------------------------------------
TRAINMEM_ZH(kFramework, "训练框架")
TRAINMEM_ZH(kFrameworkHelp, "训练框架的实现方式：默认切分什么、缓存什么、保留什么")
TRAINMEM_ZH(kFrameworkTorchtitanNpu, "torchtitan-npu（昇腾）")
TRAINMEM_ZH(kMode, "估算方法")
TRAINMEM_ZH(kModeHelp, "精细：框架实际分配的显存。模板粗估：模板中的五个公式，按原文计算")
TRAINMEM_ZH(kModeDetailed, "精细")
TRAINMEM_ZH(kModeDetailedHelp, "感知框架：各框架实际分配的显存")
TRAINMEM_ZH(kModeTemplate, "模板粗估")
TRAINMEM_ZH(kModeTemplateShort, "模板粗估")
TRAINMEM_ZH(kModeDetailedShort, "精细估算")
TRAINMEM_ZH(kModeTemplateHelp, "估算模板的五个公式，使用名义参数量")
TRAINMEM_ZH(kTemporaryFraction, "临时缓冲占比")
TRAINMEM_ZH(kTemporaryFractionHelp,
            "额外临时缓冲区占其余部分的比例（模板给出 5\xE2\x80\x93"
            "15 %）")
TRAINMEM_ZH(kBudgetFraction, "可用预算")
TRAINMEM_ZH(kBudgetFractionHelp, "估算可使用的显存比例（模板的安全余量：95 %）")

// ---- Results -----------------------------------------------------------------------------------
TRAINMEM_ZH(kVerdictFits, "放得下")
TRAINMEM_ZH(kVerdictLinkPartly, "链接未完全读取")
TRAINMEM_ZH(kHeadlineSpareTemplate, "每卡 %s / 可用 %s：余量 %s")
TRAINMEM_ZH(kHeadlineOverTemplate, "每卡 %s / 可用 %s：超出 %s")
TRAINMEM_ZH(kBudgetLineTemplate,
            "可用 = 设备 %d %% 的 %s \xC2\xB7 峰值已分配（PyTorch max_memory_allocated）%s")
TRAINMEM_ZH(kBudgetLessBuffersTemplate, "，扣除分配器之外的 %s MinimalAsyncEP 缓冲")
TRAINMEM_ZH(kWhatToChangeTemplate, "建议修改：%s \xE2\x86\x92 %s，%s")
TRAINMEM_ZH(kClearFitNeedsDevicesTemplate,
            "此处没有留出误差余量的方案；%lld 张卡可以（布局搜索能找到）。")
TRAINMEM_ZH(kDevicesNeededTemplate,
            "在当前设备数上，任何单项调整都放不下；%lld 张卡可以（布局搜索能找到放得下的布局）。")
TRAINMEM_ZH(kShowLayoutsTemplate, "查看 %lld 张卡上的布局")
TRAINMEM_ZH(kNothingFitsAtAll, "即使 16384 张卡也放不下：需要显存更大的设备或更小的模型。")
TRAINMEM_ZH(kLastValidEstimate, "上一次有效的估算：有输入无效（见标红的字段）。")
TRAINMEM_ZH(
    kLinkFallbackNote,
    "此链接未能完全读取（见上方）：读不出的部分用默认值填充，因此这不是链接原本的估算。修改任意"
    "一项即成为你自己的配置。")
TRAINMEM_ZH(kEstimatedWhatTemplate,
            "%s，%lld \xC3\x97 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s \xC2\xB7 %s")
TRAINMEM_ZH(kLayoutSingle, "单卡，不切分")
TRAINMEM_ZH(kAcWordsNone, "无重计算")
TRAINMEM_ZH(kAcWordsFull, "全量重计算")
TRAINMEM_ZH(kAcWordsSelective, "选择性重计算")
TRAINMEM_ZH(kAcWordsSelectiveOp, "选择性重计算（按算子）")
TRAINMEM_ZH(kAcWordsSelectiveMegatron, "选择性重计算（核心注意力）")
TRAINMEM_ZH(kAcWordsSelectiveModules, "选择性重计算（--recompute-modules 所列模块）")
TRAINMEM_ZH(kAcWordsSelectiveEvery, "选择性重计算（每 %s 层一层）")
TRAINMEM_ZH(kVerdictDoesNotFit, "放不下")
TRAINMEM_ZH(kVerdictClose, "接近上限")
TRAINMEM_ZH(kAccuracyBandTemplate,
            "预期误差：实测峰值在估算值的 \xE2\x88\x92%d %% / +%d %% 以内（%d 个 %s 实测运行）%s")
TRAINMEM_ZH(kAccuracyBandOneTemplate,
            "预期误差：唯一一次 %s 实测运行的峰值在估算值的 \xE2\x88\x92%d %% / +%d %% 以内%s")
TRAINMEM_ZH(kAccuracyCloseSuffix, "；总量距可用显存在此误差范围内")
TRAINMEM_ZH(kAccuracyUnknownTemplate, "预期误差：尚无 %s 的实测运行，准确度未知")
TRAINMEM_ZH(kAccuracyTemplateMode, "模板粗略公式：准确度未经实测")
TRAINMEM_ZH(kPillFits, "放得下")
TRAINMEM_ZH(kPillNoFit, "放不下")
TRAINMEM_ZH(kPillClose, "接近上限")
TRAINMEM_ZH(kHostLineLead, "每个 rank 的主机（CPU）内存：")
TRAINMEM_ZH(kHostOptimizerPart, "优化器状态 %s")
TRAINMEM_ZH(kHostActivationsPart, "激活 %s")
TRAINMEM_ZH(kListSeparator, "，")
TRAINMEM_ZH(kLegendUsable, "\xC2\xA6 可用 %s")
TRAINMEM_ZH(kLegendDevice, "| 设备 %s")
TRAINMEM_ZH(kComponentParameters, "参数")
TRAINMEM_ZH(kComponentGradients, "梯度")
TRAINMEM_ZH(kComponentOptimizer, "优化器状态")
TRAINMEM_ZH(kComponentActivations, "激活")
TRAINMEM_ZH(kComponentTemporary, "临时缓冲区")
TRAINMEM_ZH(kSectionBreakdown, "每卡显存")
TRAINMEM_ZH(kColumnComponent, "组成部分")
TRAINMEM_ZH(kColumnShare, "占比")
TRAINMEM_ZH(kColumnGiBHelp, "二进制 GB，2^30 字节：框架和 OOM 报错使用的单位")
TRAINMEM_ZH(kColumnGBHelp, "十进制 GB，10^9 字节：标称显存使用的单位")
TRAINMEM_ZH(kRowTotal, "总计")
TRAINMEM_ZH(kRowPeakAllocated, "峰值已分配")
TRAINMEM_ZH(kRowPeakAllocatedHelp,
            "总计减去缓存分配器的预留：可与 torch.cuda.max_memory_allocated 对比")
TRAINMEM_ZH(kSectionAdvice, "调整建议")
TRAINMEM_ZH(kAdviceIntro,
            "只列出能降低总量的步骤，按实践中的常用顺序；每一行都在上一行的基础上累加。")
TRAINMEM_ZH(kAdviceSelectiveAc, "启用选择性激活重计算（按算子策略）")
TRAINMEM_ZH(kAdviceFullAc, "启用全量激活重计算（反向时重算每一层）")
TRAINMEM_ZH(kAdviceFusedStep,
            "用融合内核执行 Adam 更新（adamw_torch_fused / fused=True）：更新时不再复制一份动量")
TRAINMEM_ZH(kAdviceDistributedOptimizer, "使用分布式优化器（fp32 主权重和动量按数据并行切分）")
TRAINMEM_ZH(kAdviceSwapOptimizer, "把优化器状态换出到主机内存（swap_optimizer）")
TRAINMEM_ZH(kAdviceOffloadOptimizer, "把优化器状态和更新卸载到主机内存")
TRAINMEM_ZH(kAdviceTensorParallel, "张量并行度从 %lld 提高到 %lld")
TRAINMEM_ZH(kAdvicePipelineParallel, "流水线并行度从 %lld 提高到 %lld")
TRAINMEM_ZH(kAdviceExpertParallel, "专家并行度从 %lld 提高到 %lld")
TRAINMEM_ZH(kAdviceContextParallel, "上下文并行度从 %lld 提高到 %lld（序列切分到多卡）")
TRAINMEM_ZH(kAdviceBatchSize, "单卡 batch 从 %lld 减到 %lld")
TRAINMEM_ZH(kAdviceSeqLen, "序列长度从 %lld 缩短到 %lld")
TRAINMEM_ZH(kAdviceZeroStageOptimizer, "ZeRO 阶段从 %lld 提高到 %lld（优化器状态按数据并行切分）")
TRAINMEM_ZH(kAdviceZeroStageGradients,
            "ZeRO 阶段从 %lld 提高到 %lld（优化器状态和梯度按数据并行切分）")
TRAINMEM_ZH(kAdviceZeroStageParameters,
            "ZeRO 阶段从 %lld 提高到 %lld（优化器状态、梯度和参数按数据并行切分）")
TRAINMEM_ZH(kAdviceCombination, "不超预算的最低代价组合")
TRAINMEM_ZH(
    kAdviceDevicesNeededTemplate,
    "以上都放不下。%lld 张卡可以：在该卡数下，布局搜索能找到放得下的布局（batch 和序列长度不变）。")
TRAINMEM_ZH(kChangeAcOp, "按算子策略")
TRAINMEM_ZH(kChangeAcEvery, "每 %lld 个 block")
TRAINMEM_ZH(kChangeSwap, "开启 swap_optimizer")
TRAINMEM_ZH(kChangeFusedStep, "融合的优化器更新")
TRAINMEM_ZH(kChangeOffload, "开启优化器卸载")
TRAINMEM_ZH(kChangeDistributedOptimizer, "开启分布式优化器（ZeRO-1）")
TRAINMEM_ZH(kChangeZeroStage, "ZeRO 阶段 %lld")
TRAINMEM_ZH(kChangeFsdpRest, "数据并行使用其余全部设备")
TRAINMEM_ZH(kDataParallelOne, "数据并行")
TRAINMEM_ZH(
    kDataParallelOneHelp,
    "Megatron 和 DeepSpeed 只有一个数据并行组；「其余全部」（配置中的 -1）使用其他并行度剩下的"
    "设备。切分什么由 ZeRO 阶段决定（Megatron：1 = 分布式优化器）")
TRAINMEM_ZH(kChangeFsdp, "FSDP %lld")
TRAINMEM_ZH(kChangeTp, "张量并行 %lld")
TRAINMEM_ZH(kChangePp, "流水线并行 %lld")
TRAINMEM_ZH(kChangeEp, "专家并行 %lld")
TRAINMEM_ZH(kChangeCp, "上下文并行 %lld")
TRAINMEM_ZH(kChangeBatch, "单卡 batch %lld")
TRAINMEM_ZH(kChangeSeq, "序列长度 %lld")
TRAINMEM_ZH(kChangeDevices, "%lld 张卡")
TRAINMEM_ZH(kAdviceNoneNeeded, "放得下：无需调整。")
TRAINMEM_ZH(kAdviceLinkPartly,
            "链接未能完全读取，暂不给出建议：请修正链接，或修改任意一项使其成为你自己的配置。")
TRAINMEM_ZH(kAdviceFieldInvalid, "有输入无效，暂不给出建议：请先修正标红的字段。")
TRAINMEM_ZH(kAdviceCloseNoStep,
            "放得下但接近上限：这里没有能再降低显存的步骤；请留出余量或增加卡数。")
TRAINMEM_ZH(kApply, "应用")
TRAINMEM_ZH(kSectionModelFacts, "模型与布局")
TRAINMEM_ZH(kParamsTotal, "参数总量")
TRAINMEM_ZH(kParamsActive, "每 token 激活参数")
TRAINMEM_ZH(kParamsActiveHelp, "Dense 参数加上 top-k 路由专家（含 embedding 和输出头）")
TRAINMEM_ZH(kParamsDense, "Dense 参数")
TRAINMEM_ZH(kParamsExpert, "路由专家")
TRAINMEM_ZH(kParamsEmbedding, "Embedding + 输出头")
TRAINMEM_ZH(kParamsVision, "视觉塔（未加载）")
TRAINMEM_ZH(kParamsVisionFrozen, "视觉塔（冻结：仅权重）")
TRAINMEM_ZH(kParamsVisionTrained, "视觉塔（参与训练，已计入总量）")
TRAINMEM_ZH(kParamsVisionHelp,
            "检查点中的视觉塔及其投影层，按 vision_config 计算。训练 > 视觉塔 决定任务如何使用它；"
            "图像 token 的激活不建模")
TRAINMEM_ZH(kVisionTower, "视觉塔")
TRAINMEM_ZH(kVisionTowerHelp,
            "未加载：只训练语言模型的纯文本任务。冻结：加载权重，但没有梯度和优化器状态"
            "（LLaMA-Factory 的 freeze_vision_tower）。训练：权重、梯度和优化器状态都计入"
            "（torchtitan 的多模态模型）")
TRAINMEM_ZH(kVisionTowerNone, "未加载")
TRAINMEM_ZH(kVisionTowerFrozen, "冻结")
TRAINMEM_ZH(kVisionTowerTrained, "训练")
TRAINMEM_ZH(kHostOptimizer, "主机内存：优化器")
TRAINMEM_ZH(kHostOptimizerHelp, "每个 rank 的主机（CPU）内存，用于 swap_optimizer 或优化器卸载")
TRAINMEM_ZH(kHostActivations, "主机内存：激活")
TRAINMEM_ZH(kSectionActivations, "激活：如何推算")
TRAINMEM_ZH(kActK, "等效 K")
TRAINMEM_ZH(kActKHelp,
            "每层字节数 / (B \xC3\x97 S \xC3\x97 H \xC3\x97 dtype 字节数)：模板中的 "
            "K，此处为计算值而非假设值")
TRAINMEM_ZH(kActBytesPerToken, "每 token 每层")
TRAINMEM_ZH(kActPerLayer, "一层、一个微批")
TRAINMEM_ZH(kActLayersKept, "保存的层数")
TRAINMEM_ZH(kActMicrobatches, "同时在途的微批")
TRAINMEM_ZH(kActSavedLayers, "所有层保存的激活")
TRAINMEM_ZH(kActRecompute, "重计算的层")
TRAINMEM_ZH(kActEmbedding, "Embedding 输出")
TRAINMEM_ZH(kActLogits, "Logits 与损失")
TRAINMEM_ZH(kActAttentionScores, "注意力分数")
TRAINMEM_ZH(kActOffloaded, "卸载到主机")
TRAINMEM_ZH(kTemporaryDetails, "临时缓冲区")
TRAINMEM_ZH(kTempGatheredParams, "聚合的参数")
TRAINMEM_ZH(kTempUnshardedGrads, "未分片的梯度")
TRAINMEM_ZH(kTempGradBuckets, "梯度桶")
TRAINMEM_ZH(kTempWorkspaces, "GEMM 工作区")
TRAINMEM_ZH(kTempOptimizerStep, "优化器更新")
TRAINMEM_ZH(kTempFraction, "临时缓冲占比")
TRAINMEM_ZH(kTempAllocatorReserve, "分配器预留")
TRAINMEM_ZH(kTempAllocatorReserveHelp, "缓存分配器碎片：reserved 减去 allocated")
TRAINMEM_ZH(kSectionStages, "流水线阶段")
TRAINMEM_ZH(kColumnStage, "阶段")
TRAINMEM_ZH(kColumnLayers, "层")
TRAINMEM_ZH(kColumnPeakPhase, "峰值时刻")
TRAINMEM_ZH(kStageEmbeddingTag, " + embedding")
TRAINMEM_ZH(kStageHeadTag, " + 输出头")
TRAINMEM_ZH(kStageNoLayers, "无 block")
TRAINMEM_ZH(kStagesNote, "顶部数字取自高亮的（最大的）阶段。")
TRAINMEM_ZH(kSectionRoughRule, "粗估规则（供对比）")
TRAINMEM_ZH(kSectionDetailedFootnote, "精细估算（供对比）")
TRAINMEM_ZH(kRoughRuleSaysTemplate,
            "粗估规则的五个公式（权重和梯度每参数 2 + 2 字节，按 TP、PP 切分；AdamW 的两个 fp32 "
            "矩每参数 8 字节，按 TP、PP 切分，并再按 FSDP 度切分；每层激活 K \xC2\xB7 s \xC2\xB7 "
            "h）对同样的输入给出 %s。这是快速粗估，不是第二个结论；差别最大的是%s：")
TRAINMEM_ZH(kDetailedSaysTemplate, "精细估算对同样的输入给出 %s；模板粗估差别最大的是%s：")
TRAINMEM_ZH(
    kWhyParameters,
    "模板按参数精度计一次权重（bf16 为 2 B）；框架还保存 fp32 主权重副本，并为计算聚合各层。")
TRAINMEM_ZH(kWhyGradients, "模板把梯度按权重计；框架以 fp32 保存梯度、为归约分桶，或提前释放。")
TRAINMEM_ZH(kWhyOptimizer,
            "模板取 AdamW 的两个 fp32 矩，只按 TP \xC3\x97 PP \xC3\x97 FSDP "
            "切分；框架的切分、主权重副本和换出方式不同。")
TRAINMEM_ZH(kWhyActivations,
            "模板用每层 K \xE2\x89\x88 10\xE2\x80\x93"
            "15 个张量；此估算按所选激活重计算策略逐个统计每层保存的张量，另加 logits。")
TRAINMEM_ZH(kWhyTemporary,
            "模板统一加 5\xE2\x80\x93"
            "15 %；此估算分别计算聚合的层、梯度桶、优化器更新和分配器预留。")
TRAINMEM_ZH(kColumnThisEstimate, "本估算")
TRAINMEM_ZH(kColumnRoughRule, "模板粗估")
TRAINMEM_ZH(kColumnDetailed, "精细估算")
TRAINMEM_ZH(kNominalTemplate, "模板粗估按名义参数量 %s：%s；按实际参数量 %s：%s。")
TRAINMEM_ZH(kSectionWarnings, "提示")

// ---- Measured in a run (panel_measured.cpp) ---------------------------------------------------
TRAINMEM_ZH(kSectionMeasured, "实测对比")
TRAINMEM_ZH(kMeasuredIntro,
            "粘贴训练日志（torchtitan、Megatron-LM、MindSpeed-LLM、DeepSpeed、Trainer、verl、"
            "ms-swift、axolotl、XTuner 等）、"
            "torch.cuda.memory_summary()、nvidia-smi 或 npu-smi 的输出，或把日志文件、"
            "torch.profiler 显存时间线（.json）、显存分配器快照（.pickle）拖到本页。")
TRAINMEM_ZH(kMeasuredCompare, "与估算对比")
TRAINMEM_ZH(kMeasuredClear, "清除")
TRAINMEM_ZH(kMeasuredPasteAnother, "粘贴另一份日志")
TRAINMEM_ZH(
    kMeasuredConfigChangedTemplate,
    "测量时的配置与当前不同（%s）：比值是在拿这次运行与一个它没有运行的作业相比；在配置改回之前，"
    "分享链接不带这次测量。")
TRAINMEM_ZH(kMeasuredRestoreConfig, "改回测量时的配置")
TRAINMEM_ZH(kColumnMeasuredMetric, "指标")
TRAINMEM_ZH(kColumnEstimate, "估算")
TRAINMEM_ZH(kColumnMeasured, "实测")
TRAINMEM_ZH(kColumnRatio, "比值")
TRAINMEM_ZH(kColumnRatioHelp, "实测 \xC3\xB7 估算：大于 1 表示实际用的显存比估算多")
TRAINMEM_ZH(kMetricReserved, "峰值预留（max reserved）")
TRAINMEM_ZH(kMetricReservedHelp,
            "torch.cuda.max_memory_reserved，即显存不足报错时看到的量；与估算的总量对比")
TRAINMEM_ZH(kMetricMaxAllocated, "峰值已分配（max allocated）")
TRAINMEM_ZH(kMetricMaxAllocatedHelp, "torch.cuda.max_memory_allocated；与估算的峰值已分配对比")
TRAINMEM_ZH(kMetricActive, "峰值活跃（peak active）")
TRAINMEM_ZH(kMetricActiveHelp, "峰值活跃字节数；与估算的峰值已分配对比")
TRAINMEM_ZH(kMetricAllocated, "两步之间的已分配")
TRAINMEM_ZH(kMetricAllocatedHelp, "打印该行时已分配的显存；与参数 + 梯度 + 优化器状态对比")
TRAINMEM_ZH(kMetricDeviceUsed, "设备显存占用")
TRAINMEM_ZH(kMetricDeviceUsedHelp,
            "nvidia-smi / npu-smi：整个进程的占用，含估算不计的运行时上下文和通信缓冲区；"
            "与估算的总量对比")
TRAINMEM_ZH(kMeasuredRankTemplate, "rank %d \xE2\x86\x92 stage %d")
TRAINMEM_ZH(kMeasuredComponentsTitle, "profile 峰值时刻")
TRAINMEM_ZH(kMeasuredFromTemplate, "读取自 %s（%s）。")
TRAINMEM_ZH(kMeasuredSnapshotTemplate,
            "显存分配器快照，设备 %d：预留 %s，已分配 %s；预留显存中 %.1f %% 未分配"
            "（缓存与碎片），最大空闲块 %s。")
TRAINMEM_ZH(kMeasuredSkippedTemplate, "%lld 行未使用：")
TRAINMEM_ZH(kFeedbackMeasured, "已读取实测数据；链接会带上它")

// ---- Explorer ----------------------------------------------------------------------------------
TRAINMEM_ZH(kTabEstimate, "估算")
TRAINMEM_ZH(kTabLayouts, "并行布局")
TRAINMEM_ZH(kTabMemoryMap, "显存图")
TRAINMEM_ZH(kSectionLayouts, "放得下的并行布局")
TRAINMEM_ZH(
    kLayoutsIntroTemplate,
    "把作业切到 %lld \xC3\x97 %s 上、放得下的所有方式，按估算步时从低到高排列。点击一行即可使用。")
TRAINMEM_ZH(kLayoutsVaryAc, "尝试各种重计算模式")
TRAINMEM_ZH(kLayoutsVaryAcHelp, "对每个布局再尝试无重计算、选择性（op）和全量重计算")
TRAINMEM_ZH(kLayoutsVarySwap, "尝试把优化器移出设备")
TRAINMEM_ZH(kLayoutsVarySwapHelp,
            "再尝试把优化器状态放到主机内存（按框架的方式：swap_optimizer 或优化器卸载）")
TRAINMEM_ZH(kSearch, "搜索")
TRAINMEM_ZH(kSearchHelp, "用这些选项重新搜索")
TRAINMEM_ZH(kSearching, "搜索中\xE2\x80\xA6")
TRAINMEM_ZH(kLayoutsCountsTemplate,
            "显示 %lld 个 \xC2\xB7 有效候选 %lld 个 \xC2\xB7 已估算 %lld 个 \xC2\xB7 %.0f ms")
TRAINMEM_ZH(kColumnRankHelp, "搜索的排序：估算步时最低的在前")
TRAINMEM_ZH(kColumnDpr, "DP 副本")
TRAINMEM_ZH(kColumnAc, "激活重计算")
TRAINMEM_ZH(kColumnPlacement, "优化器")
TRAINMEM_ZH(kColumnPlacementHelp, "优化器状态的位置：设备上、换出到主机（swap_optimizer）或卸载")
TRAINMEM_ZH(
    kPeakAtStepNote,
    "峰值出现在优化器更新时：此时激活已释放；更新时的 fp32 梯度副本与临时张量计入临时缓冲区。")
TRAINMEM_ZH(kColumnHeadroom, "余量")
TRAINMEM_ZH(kColumnHeadroomHelp,
            "可用显存减去总量。琥珀色：在估算误差范围内接近上限，该布局的结论为\"接近上限\"")
TRAINMEM_ZH(kColumnCost, "代价")
TRAINMEM_ZH(kColumnCostHelp, "相对步时，1.00\xC3\x97 = 理想；悬停一行查看构成")
TRAINMEM_ZH(kPlacementDevice, "设备上")
TRAINMEM_ZH(kPlacementSwap, "换出")
TRAINMEM_ZH(kPlacementOffload, "卸载")
TRAINMEM_ZH(kLayoutRowHelp, "点击使用此布局")
TRAINMEM_ZH(kSectionMemoryMap, "显存图")
TRAINMEM_ZH(kHeatmapGrid, "网格")
TRAINMEM_ZH(kGridBatchSeq, "batch 大小 \xC3\x97 序列长度")
TRAINMEM_ZH(kGridTpPp, "张量并行 \xC3\x97 流水线并行")
TRAINMEM_ZH(kGridEpEtp, "专家并行 \xC3\x97 专家张量并行")
TRAINMEM_ZH(kComputing, "计算中\xE2\x80\xA6")
TRAINMEM_ZH(kHeatmapCountsTemplate, "%d \xC3\x97 %d 格 \xC2\xB7 %.0f ms")
TRAINMEM_ZH(kHeatmapIntro, "每对取值下的每卡总量，其余与左侧相同。悬停查看构成；点击使用这两个值。")
TRAINMEM_ZH(kHeatmapNoValid, "此网格中没有对该作业有效的配置。")
TRAINMEM_ZH(kHeatmapInvalidTemplate, "无效：%s")
TRAINMEM_ZH(kHeatmapUsableTemplate, "/ 可用 %s")
TRAINMEM_ZH(kHeatmapClickHelp, "点击使用这两个值")
TRAINMEM_ZH(kHeatmapShaderErrorTemplate, "无法绘制显存图：%s")
TRAINMEM_ZH(kHeatmapScaleTitle, "每卡总量，GiB（对数刻度）")
TRAINMEM_ZH(kHeatmapLegendBudgetTemplate, "可用预算 %s")
TRAINMEM_ZH(kHeatmapLegendCurrent, "当前配置")
TRAINMEM_ZH(kHeatmapLegendInvalid, "无效配置")
