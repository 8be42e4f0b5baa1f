/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtmeasure.h - umbrella header of librtmeasure.
 *
 * Each module has its own small header; include this one to get them all.
 */
#ifndef RTMEASURE_H
#define RTMEASURE_H

#include "error.h"
#include "fileio.h"
#include "units.h"
#include "hist.h"
#include "timeseries.h"
#include "sysinfo.h"
#include "result.h"
#include "irq.h"
#include "import.h"
#include "export.h"
#include "stats.h"
#include "compare.h"

#endif
