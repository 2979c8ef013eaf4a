/* SPDX-License-Identifier: MIT */
/* Internal to src/samples/c2c.c and c2c_infer.c: the Pareto columns of a
 * perf c2c report --stdio. */
#ifndef SLT_SAMPLES_C2C_INT_H
#define SLT_SAMPLES_C2C_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "samples/text.h"

enum col {
	C_UNKNOWN = 0,
	/* percentage columns (between Num and Offset) */
	C_HITM_R, C_HITM_L, C_PEER_R, C_PEER_L, C_ST_HIT, C_ST_MISS, C_ST_NA,
	/* after Offset */
	C_OFFSET, C_DNODE, C_PACNT, C_PID, C_TID, C_IADDR,
	C_CY_HITM_R, C_CY_HITM_L, C_CY_PEER_R, C_CY_PEER_L, C_CY_LOAD,
	C_RECORDS, C_CPUCNT, C_SYM, C_OBJ, C_SRC,
	C_NODES,       /* "Node": node numbers only */
	C_NODES_CNT,   /* "Node{cpus %hitms %stores}": node{count ...} */
	C_NODES_LIST,  /* "Node{cpu list}": node{cpu list} */
};

#define MAX_COLS 48

/*
 * The columns of a Pareto block whose header lines (the '#' group line
 * "----- HITM -----  -- Store Refs --  ..." and the name line "Num  RmtHitm
 * LclHitm ... Offset ... Code address ...") are missing, from its block
 * header hdr ("Num <totals...> 0xLINE") and its first row, as perf
 * prints them (builtin-c2c.c): the row's leading percentages (one per
 * total of hdr: 4 = HITM rmt/lcl + L1 hit/miss stores, perf < 6.0;
 * 5 = the same + N/A stores, perf >= 6.0; 6 = HITM rmt/lcl, peer, L1
 * hit/miss, any-level stores, the Arm SPE v1 series), Offset (0x), the
 * data Node and PA cnt (and Pid, "tid:comm" when coalesced so) up to the
 * Code address (0x), the cycles averages (3, or 4 with a peer column),
 * records (absent in perf 4.8) and cpu cnt, then Symbol ("[k] name"),
 * Object, Source:Line (when the token after the object is not a node)
 * and the Node column (kind from its text).  A 5-column report displayed
 * with -d peer prints the same shapes: its peer columns read as HITM.
 * Returns true with pct/rest filled, else false with *why (static) saying
 * what could not be recognised.
 */
bool slt_c2c_infer(struct slt_span hdr, struct slt_span row, enum col *pct,
		   size_t *n_pct, enum col *rest, size_t *n_rest, const char **why);

/* Whether line reads as a Pareto block header: a decimal Num, decimal
 * totals and the line address in hex, nothing else. */
bool slt_c2c_block_line(struct slt_span line);

/* Detection score of a perf c2c report pasted without its header lines:
 * 55 for a block line followed by a Pareto row, 25 for Pareto rows alone
 * (parsed only to be refused naming what is missing), else 0. */
int slt_c2c_headless_detect(const unsigned char *head, size_t n);

#endif
