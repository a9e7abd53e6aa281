/*
 * event_match: which events `--event NAME` selects, the same for `cli
 * perf collapse` (event names from perf script's text) and `cli perf
 * fold` (the names perf.data's attributes give).
 */
#ifndef PERF_EVENT_MATCH_H
#define PERF_EVENT_MATCH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether `want` (from --event) names `event`, an event name as perf
 * script prints it and as perf.data's attributes give it: equal, or
 * `event` is `want` plus perf's modifiers (":u", ":ppp", ...), so
 * "cpu-clock" selects "cpu-clock:ppp".
 */
bool script_event_matches(const char *want, const char *event, size_t event_len);

#endif
