// How right an estimate is: the error band measured for its family of runs, and the verdict
// that takes it into account ("fits" only when the total fits with the band to spare).
//
// Families group runs that share an estimator recipe and a measurement: Megatron-LM on GPUs,
// MindSpeed-LLM (Megatron on Ascend NPUs), torchtitan, torchtitan-npu, torchtune, DeepSpeed.
// The bands come from the family's rows in tests/data/{calibration,megatron_ci,mindspeed_ci}.jsonl
// that are not held out
// (bench/accuracy.cpp holds out the rows whose id hashes to 0 mod 3 and reports them
// separately). They are one-sided: how far measured peaks rose ABOVE their estimates (the risk
// behind a "fits") and how far they fell BELOW (the risk behind a "does not fit"), each the 90th
// percentile over the runs, and never less than the family's median |error| (a few runs that
// all erred one way do not prove the other way cannot happen). They live in
// accuracy_bands.inc, written by `trainmem_accuracy --write-bands
// src/core/estimate/accuracy_bands.inc`.
#pragma once

#include <cstdint>
#include <string>

#include "core/config/config.h"

namespace trainmem {

// Static strings only: an estimate fills one, and estimates run by the thousand.
struct ErrorBand {
  const char* family = "";  // "megatron", "mindspeed", "torchtitan", ... (AccuracyFamily)
  const char* label = "";   // "Megatron-LM (GPU)"
  int runs = 0;             // measured runs behind the figures (0 = none: no band)
  double median = 0;        // median |error| over them (fraction)
  double band = 0;   // above: how far a measured peak may exceed the estimate (fraction of it)
  double below = 0;  // how far a measured peak may fall short of the estimate (fraction of it)
  bool template_mode = false;  // the seed's formulas: not measured
};

// The family key of a config: the framework, with Megatron on Ascend devices (MindSpeed-LLM)
// kept apart from Megatron-LM on GPUs.
const char* AccuracyFamily(const Config& config);
const char* AccuracyFamilyLabel(const char* family);

// The recorded band of the config's family (runs = 0 when no run of the family is recorded).
ErrorBand ErrorBandFor(const Config& config);

// "measured peaks within −4% / +5% of the estimate on 3 Megatron-LM (GPU) runs", or why
// there is no band.
std::string ErrorBandText(const ErrorBand& band);

enum class Verdict {
  kFits,          // total × (1 + above) ≤ usable: fits even if the run comes in that much higher
  kCloseToLimit,  // within the band of the usable budget, on either side
  kDoesNotFit,    // total × (1 − below) > usable: does not fit even if it comes in lower
};
const char* VerdictName(Verdict v);  // "fits", "close to the limit", "does not fit"
Verdict VerdictFor(std::int64_t total, std::int64_t usable, double above, double below);

}  // namespace trainmem
