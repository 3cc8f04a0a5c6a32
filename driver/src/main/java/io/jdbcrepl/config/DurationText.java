package io.jdbcrepl.config;

import java.time.Duration;

/**
 * A duration as people write it, in the units of the repl.* duration keys: {@code 20s},
 * {@code 1m30s}, {@code 500ms}, {@code 7d}, rather than {@link Duration#toString()}'s {@code PT20S}.
 */
public final class DurationText {

    private static final long[] UNIT_SECONDS = {86_400L, 3_600L, 60L, 1L};
    private static final String[] UNITS = {"d", "h", "m", "s"};

    private DurationText() {
    }

    /** Each unit from days down to nanoseconds that is not zero. */
    public static String of(Duration duration) {
        if (duration.isNegative()) return "-" + of(duration.negated());
        StringBuilder text = new StringBuilder();
        long seconds = duration.getSeconds(); // not toMillis(): it overflows for the longest durations
        for (int i = 0; i < UNITS.length; i++) {
            append(text, seconds / UNIT_SECONDS[i], UNITS[i]);
            seconds %= UNIT_SECONDS[i];
        }
        append(text, duration.getNano() / 1_000_000, "ms");
        append(text, duration.getNano() % 1_000_000, "ns");
        return text.length() == 0 ? "0s" : text.toString();
    }

    private static void append(StringBuilder text, long amount, String unit) {
        if (amount != 0) text.append(amount).append(unit);
    }
}
