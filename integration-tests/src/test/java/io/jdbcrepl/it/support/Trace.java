package io.jdbcrepl.it.support;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * What a scenario observed, one line per step: the value a JDBC call returned or the exception
 * it threw (class, SQLState, vendor code). Run a scenario once through the vendor's driver and
 * once through {@code jdbc:repl:} and compare the two traces: the raw driver is the reference.
 *
 * <p>Steps say what they expect: {@link #value} and {@link #step} expect success (an exception is
 * recorded, counted as {@linkplain #unexpected() unexpected}, and ends the scenario),
 * {@link #outcome} accepts either (the raw driver decides), {@link #failure} expects an exception.
 */
public final class Trace {

    private final List<String> lines = new ArrayList<>();
    private final List<String> unexpected = new ArrayList<>();

    @FunctionalInterface
    public interface Call<T> {
        T call() throws Exception;
    }

    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /** Thrown by a step that failed unexpectedly; ends the scenario (see {@link #run}). */
    public static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Aborted(String step, Throwable cause) {
            super("step '" + step + "' failed: " + cause, cause);
        }
    }

    /** Records the value; an exception is unexpected and ends the scenario. */
    public <T> T value(String label, Call<T> call) {
        T v;
        try {
            v = call.call();
        } catch (Exception e) {
            add(label, "! " + describe(e));
            unexpected.add(label + ": " + e);
            throw new Aborted(label, e);
        }
        add(label, render(v));
        return v;
    }

    /** Runs a step that returns nothing; an exception is unexpected and ends the scenario. */
    public void step(String label, Action action) {
        value(label, () -> {
            action.run();
            return "ok";
        });
    }

    /** Records the value or the exception, whichever happens (returns null after an exception). */
    public <T> T outcome(String label, Call<T> call) {
        try {
            T v = call.call();
            add(label, render(v));
            return v;
        } catch (Exception e) {
            add(label, "! " + describe(e));
            return null;
        }
    }

    /** Records the outcome of a step that returns nothing. */
    public void outcomeOf(String label, Action action) {
        outcome(label, () -> {
            action.run();
            return "ok";
        });
    }

    /** Expects an exception and records it; returning normally is recorded and unexpected. */
    public void failure(String label, Action action) {
        try {
            action.run();
        } catch (Exception e) {
            add(label, "! " + describe(e));
            return;
        }
        add(label, "returned normally");
        unexpected.add(label + ": expected an exception");
    }

    /** Records a fact computed by the test itself. */
    public void note(String label, Object value) {
        add(label, render(value));
    }

    /** Runs {@code scenario}, ending it quietly at the first unexpected failure (already recorded). */
    public Trace run(Action scenario) {
        try {
            scenario.run();
        } catch (Aborted e) {
            lines.add("-- scenario ended here");
        } catch (Exception e) {
            lines.add("-- scenario ended by " + describe(e));
            unexpected.add("scenario: " + e);
        }
        return this;
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The trace as text, one step a line: what the assertions compare (readable diffs). */
    public String text() {
        return String.join("\n", lines);
    }

    /** Steps that failed though they were expected to succeed, or succeeded though expected to fail. */
    public List<String> unexpected() {
        return List.copyOf(unexpected);
    }

    private void add(String label, String value) {
        lines.add(label + " -> " + value);
    }

    /** An exception as the comparison sees it: class, SQLState, vendor code (not the message, which may name a session id). */
    public static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.getClass().getName());
        if (e instanceof SQLException s) {
            sb.append(" SQLState=").append(s.getSQLState()).append(" code=").append(s.getErrorCode());
        }
        if (e instanceof BatchUpdateException b) {
            sb.append(" updateCounts=").append(Arrays.toString(b.getUpdateCounts()));
        }
        return sb.toString();
    }

    /** Renders a value deterministically: arrays element-wise, bytes in hex, warnings as a chain. */
    public static String render(Object v) {
        if (v == null) return "null";
        if (v instanceof byte[] b) return "0x" + HexFormat.of().formatHex(b);
        if (v instanceof int[] a) return Arrays.toString(a);
        if (v instanceof long[] a) return Arrays.toString(a);
        if (v instanceof Object[] a) return Arrays.deepToString(a);
        if (v instanceof SQLWarning w) return warnings(w);
        if (v instanceof CharSequence || v instanceof Number || v instanceof Boolean || v instanceof Character
                || v instanceof java.util.Date || v instanceof java.time.temporal.TemporalAccessor
                || v instanceof java.util.UUID || v instanceof java.util.Collection<?> || v instanceof java.util.Map<?, ?>
                || v instanceof Enum<?>) {
            return String.valueOf(v);
        }
        // other objects' toString may carry identity hashes or session ids: show the type only
        return "a " + v.getClass().getName();
    }

    private static String warnings(SQLWarning first) {
        List<String> out = new ArrayList<>();
        for (SQLWarning w = first; w != null; w = w.getNextWarning()) {
            out.add(w.getClass().getSimpleName() + "[" + w.getSQLState() + "/" + w.getErrorCode() + "] " + w.getMessage());
        }
        return out.toString();
    }
}
