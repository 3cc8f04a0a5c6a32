package io.jdbcrepl.it.support;

import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one scenario twice on the same database, first through the vendor's driver (the
 * reference), then through {@code jdbc:repl:}, each time on tables freshly reset through a raw
 * connection, and asserts that the two {@link Trace}s are equal.
 */
public final class RawVsRepl {

    private RawVsRepl() {
    }

    /** What a transparency test does with a connection, recording each step in the trace. */
    @FunctionalInterface
    public interface Scenario {
        void run(Connection c, Trace t, Vendor vendor) throws Exception;
    }

    /** Brings the scenario's tables back to their initial state, through a raw connection. */
    @FunctionalInterface
    public interface Reset {
        void reset(Connection raw, Vendor vendor) throws Exception;
    }

    /**
     * Asserts that the reference run went as the scenario expects (no unexpected exception) and
     * that the run through jdbc:repl: observed exactly the same; returns the reference trace.
     */
    public static Trace assertSame(TestDatabase db, Reset reset, Scenario scenario) throws Exception {
        Trace raw = observe(db, false, reset, scenario);
        assertThat(raw.unexpected()).as("the reference run on the raw %s driver must go as the scenario expects:%n%s",
                db.vendor(), raw.text()).isEmpty();
        Trace repl = observe(db, true, reset, scenario);
        assertThat(repl.text()).as("jdbc:repl: pass-through (actual) vs the raw %s driver (expected); %s",
                db.vendor(), firstDifference(raw, repl)).isEqualTo(raw.text());
        return raw;
    }

    /** The first step where the traces differ, for a short failure message. */
    static String firstDifference(Trace raw, Trace repl) {
        List<String> a = raw.lines();
        List<String> b = repl.lines();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "(nothing)";
            String y = i < b.size() ? b.get(i) : "(nothing)";
            if (!x.equals(y)) {
                return "first difference at step " + (i + 1) + ":\n  raw:  " + x + "\n  repl: " + y + "\n";
            }
        }
        return "no difference";
    }

    private static Trace observe(TestDatabase db, boolean throughRepl, Reset reset, Scenario scenario) throws Exception {
        try (Connection raw = db.openRaw()) {
            reset.reset(raw, db.vendor());
        }
        Trace t = new Trace();
        try (Connection c = throughRepl ? db.openRepl() : db.openRaw()) {
            t.run(() -> scenario.run(c, t, db.vendor()));
        }
        return t;
    }
}
