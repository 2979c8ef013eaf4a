/* SPDX-License-Identifier: MIT */
/*
 * Data-type profile parser: every data-type file in fixtures/samples/c2c,
 * expected values worked out by hand (pct * samples from the header, see
 * datatype.c), plus generated edge cases.
 */
#include "samples_helpers.h"

static void test_tugtest(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/c2c-and-datatype-tugtest.txt", SLT_SAMPLES_AUTO, &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_DATATYPE);
	/* 5 load rows, 4 store rows ((unknown) skipped), 3 annotate leaves */
	assert_int_equal(c.n, 12);
	assert_int_equal(in.skipped, 1);
	/* 26K -> 26500 (middle of 26000..26999); 54.50% -> 14442.5 -> 14443 */
	assert_string_equal(c.r[0].type, "int");
	assert_int_equal(c.r[0].s.loads, 14443);
	assert_string_equal(c.r[2].type, "struct __foo");
	assert_int_equal(c.r[2].s.type_offset, 8);
	assert_int_equal(c.r[2].s.loads, 2536);   /* 9.57% of 26500 = 2536.05 */
	assert_string_equal(c.r[4].type, "long unsigned int");
	assert_string_equal(c.r[2].ev, "cpu/mem-loads,ldlat=1/P");
	/* stores: 30K -> 30500; 70.48% -> 21496.4 */
	assert_string_equal(c.r[5].ev, "cpu/mem-stores/P");
	assert_int_equal(c.r[5].s.stores, 21496);
	assert_int_equal(c.r[5].s.loads, 0);
	assert_int_equal(c.r[6].s.type_offset, 16);
	assert_int_equal(c.r[7].s.stores, 9);      /* 0.03% of 30500 = 9.15 */
	/* annotate: long int 2901; struct __foo m1 2755 @0, m2 2838 @8, m3 0 */
	assert_string_equal(c.r[9].type, "long int");
	assert_int_equal(c.r[9].s.loads, 2901);
	assert_int_equal(c.r[10].s.loads, 2755);
	assert_int_equal(c.r[11].s.type_offset, 8);
	assert_int_equal(c.r[11].s.loads, 2838);
	assert_true(c.r[11].s.flags & SLT_SAMPLE_TYPE);
}

static void test_powerpc_group(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/datatype-powerpc-hierarchy-group.txt", 0, &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_DATATYPE);
	assert_int_equal(c.n, 20);
	assert_int_equal(in.skipped, 1);  /* (unknown) +0 */
	assert_string_equal(c.r[0].type, "struct vm_area_struct");
	assert_int_equal(c.r[0].s.type_offset, 136);
	assert_int_equal(c.r[0].s.loads, 23);  /* 8.19% of 277 = 22.69 */
	assert_string_equal(c.r[0].ev, "mem-loads");  /* group leader */
	assert_int_equal(c.r[4].s.type_offset, 12);
	assert_int_equal(c.r[4].s.loads, 1);   /* 0.14% of 277 = 0.39: a printed row has >= 1 */
	assert_string_equal(c.r[14].type, "void*");
	assert_string_equal(c.r[15].type, "__int128 unsigned");
	assert_int_equal(c.r[15].s.type_offset, 8);
}

static void test_rfc_annotate(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/datatype-typeoff-rfc-examples.txt", 0, &c, &in, &e), 0);
	/* report rows without a "# Samples:" line cannot be counted: 17 typeoff
	 * rows skipped; annotate: 5 non-zero leaves, the union's "pad" repeats
	 * the same 223 samples and is not emitted */
	assert_int_equal(c.n, 5);
	assert_int_equal(in.skipped, 17);
	assert_int_equal(in.samples, 223);
	assert_string_equal(c.r[0].type, "struct pcpu_hot");
	assert_int_equal(c.r[1].s.type_offset, 8);
	assert_int_equal(c.r[1].s.loads, 98);
	assert_int_equal(c.r[4].s.type_offset, 40);
}

static void test_hex(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_fx(FX "published/datatype-hex-offsets-and-typecln.txt", 0, &c, &in, &e),
			 SLT_EUSAGE);
	assert_int_equal(in.format, SLT_SAMPLES_DATATYPE);
	/* percentages only, no sample count anywhere: nothing to count, and
	 * the error says so and how to get the count */
	assert_int_equal(c.n, 0);
	assert_int_equal(in.skipped, 3);
	assert_non_null(strstr(e.message, "percentages without a sample count: 3 rows"));
	assert_non_null(strstr(e.hint, "-F overhead,sample"));
	assert_non_null(strstr(e.hint, "# Samples: N of event"));
	/* the same lines with a sample count: hex offsets */
	const char *t =
		"Annotate type: 'struct cfs_rq' in vmlinux (1000 samples):\n"
		" Percent     offset       size  field\n"
		"  100.00          0      0x1c0  struct cfs_rq    {\n"
		"    0.00          0       0x10      struct load_weight  load {\n"
		"    0.00          0        0x8          long unsigned int       weight;\n"
		"                                    };\n"
		"   14.56       0x14        0x4      unsigned int        h_nr_running;\n"
		"# Samples: 2K of event 'mem-stores'\n"
		"             0.39%        struct cfs_rq +0x14 (h_nr_running)\n"
		"     +    1.23%        struct cfs_rq: cache-line 2\n"
		"  50.00%  struct cfs_rq       struct cfs_rq +0x38 (tasks_timeline.rb_leftmost)\r\n";
	assert_int_equal(read_str(t, SLT_SAMPLES_AUTO, &c, &in, &e), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.r[0].s.type_offset, 0x14);
	assert_int_equal(c.r[0].s.loads, 146);  /* 14.56% of 1000 = 145.6 */
	assert_int_equal(c.r[1].s.type_offset, 0x14);
	assert_int_equal(c.r[1].s.stores, 10);  /* 0.39% of 2500 = 9.75 */
	assert_string_equal(c.r[2].type, "struct cfs_rq");  /* flat: last column */
	assert_int_equal(c.r[2].s.type_offset, 0x38);
	assert_int_equal(c.r[2].s.stores, 1250);
}

static void test_samples_column_and_edges(void **state)
{
	struct coll c; struct slt_samples_info in; struct slt_error e;
	const char *t =
		"# Samples: 400  of event 'cpu/mem-loads,ldlat=30/P'\n"
		"# Overhead       Samples  Data Type  Data Type Offset\n"
		"    56.00%           160  struct hot  struct hot +24 (c)\n"
		"    44.00%  18446744073709551615  struct hot  struct hot +16 (b)\n"
		"    1.00%  99999999999999999999  struct hot  struct hot +0 (a)\n"
		"    1.00%           3  struct hot  struct hot +99999999999999999999 (a)\n"
		"    1.00%\n";
	assert_int_equal(read_str(t, SLT_SAMPLES_DATATYPE, &c, &in, &e), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.r[0].s.loads, 160);
	assert_int_equal(c.r[0].s.type_offset, 24);
	assert_int_equal(c.r[1].s.loads, UINT64_MAX);
	assert_int_equal(in.samples, UINT64_MAX);  /* saturates */
	assert_int_equal(read_str("", SLT_SAMPLES_DATATYPE, &c, &in, &e), SLT_EUSAGE);
	assert_int_equal(read_str("garbage\n\n", SLT_SAMPLES_DATATYPE, &c, &in, &e), SLT_EUSAGE);
	/* truncated annotate header */
	assert_int_equal(read_str("Annotate type: 'struct x", SLT_SAMPLES_DATATYPE, &c, &in, &e), 0);
	assert_int_equal(c.n, 0);
	static const char *const other[] = {
		FX "published/perf-mem-amd-ibs-zen5.txt",
		FX "perf6.1-local/perf_mem_report.txt",
		FX "perf6.1-local/perf_script.txt",
	};
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(read_fx(other[i], SLT_SAMPLES_DATATYPE, &c, &in, &e), SLT_EUSAGE);
		assert_int_equal(c.n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tugtest), cmocka_unit_test(test_powerpc_group),
		cmocka_unit_test(test_rfc_annotate), cmocka_unit_test(test_hex),
		cmocka_unit_test(test_samples_column_and_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
