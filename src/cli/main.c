/* SPDX-License-Identifier: MIT */
/*
 * structlint — entry point: picks the subcommand and hands over argv.
 * Without a known subcommand name, the arguments are those of `layout`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/num.h"

int cli_fail(const struct slt_error *err)
{
	char buf[2048];
	fprintf(stderr, "structlint: %s\n",
		slt_error_format(err, buf, sizeof(buf)));
	return SLT_EXIT_ERROR;
}

int cli_finish(int rc, struct slt_error *err, int ok_status)
{
	if (rc > 0)
		return rc;
	if (rc == 0 && fflush(stdout) != 0)
		rc = slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	return rc < 0 ? cli_fail(err) : ok_status;
}

int cli_uint_opt(const char *name, const char *arg, unsigned long min,
		 unsigned long max, unsigned *out)
{
	unsigned long v;
	if (!cli_parse_uint(arg, min, max, &v))
		return cli_usage_error("%s '%s': want a whole number from %lu to %lu", name, arg, min, max);
	*out = (unsigned)v;
	return 0;
}

static char last_usage[512];

const char *cli_last_usage_error(void)
{
	return last_usage;
}

int cli_usage_errorv(const char *cmd, const char *fmt, va_list ap)
{
	char raw[sizeof(last_usage)];
	vsnprintf(raw, sizeof(raw), fmt, ap);
	slt_escape_controls(raw, last_usage, sizeof(last_usage));
	fprintf(stderr, "structlint: %s (see structlint %s%s--help)\n", last_usage,
		cmd ? cmd : "", cmd ? " " : "");
	return SLT_EXIT_ERROR;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = cli_usage_errorv(NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_parse_color(const char *arg)
{
	if (!arg || !strcmp(arg, "auto"))
		return CLI_COLOR_AUTO;
	if (!strcmp(arg, "always"))
		return CLI_COLOR_ALWAYS;
	if (!strcmp(arg, "never"))
		return CLI_COLOR_NEVER;
	return -1;
}

/* An explicit --color=always wins over NO_COLOR and TERM=dumb (no-color.org:
 * a per-invocation option overrides the environment); they turn off the
 * colour of auto. */
bool cli_use_color(int mode)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	if (mode != CLI_COLOR_AUTO)
		return mode == CLI_COLOR_ALWAYS;
	return !(nc && nc[0]) && !(term && !strcmp(term, "dumb")) && isatty(STDOUT_FILENO);
}

bool cli_parse_uint(const char *s, unsigned long min, unsigned long max,
		    unsigned long *out)
{
	return slt_arg_uint(s, min, max, out);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "layout", cmd_layout },
	{ "record", cmd_record },
	{ "report", cmd_report },
	{ "suggest", cmd_suggest },
	{ "check", cmd_check },
	{ "engine", cmd_engine },
	{ "baseline", cmd_baseline },
	{ "validate", cmd_validate },
	{ "access", cmd_access },
};

int main(int argc, char **argv)
{
	if (argc >= 2) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
	}
	return cmd_layout(argc, argv);
}
