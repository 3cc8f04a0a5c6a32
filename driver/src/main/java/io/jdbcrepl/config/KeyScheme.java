package io.jdbcrepl.config;

import java.sql.SQLException;
import java.util.Map;

/**
 * SPEC 8.2: generated keys that never collide. Every node hands out keys {@code ≡ offset (mod step)}:
 * with one step for the whole mesh and an offset of its own per node, no two nodes ever generate the
 * same key. {@code offset == step} is allowed (that node's keys are the multiples of step).
 */
public record KeyScheme(int step, int offset) {

    public KeyScheme {
        if (step < 1 || offset < 1 || offset > step) {
            throw new IllegalArgumentException("a key scheme needs 1 <= offset <= step, not step " + step + " offset " + offset);
        }
    }

    /** Both keys or neither, offset within 1..step; null when neither is set. */
    static KeyScheme read(Map<ReplProperty, Object> plain) throws SQLException {
        Integer step = (Integer) plain.get(ReplProperty.KEYS_STEP);
        Integer offset = (Integer) plain.get(ReplProperty.KEYS_OFFSET);
        if (step == null && offset == null) return null;
        if (step == null) {
            throw ConfigErrors.invalid("repl.keys.offset=" + offset + " is set but repl.keys.step is not: set both (the step"
                    + " the same on every node, at least the number of nodes the mesh will ever have)");
        }
        if (offset == null) {
            throw ConfigErrors.invalid("repl.keys.step=" + step + " is set but repl.keys.offset is not: set both (the offset"
                    + " 1 to " + step + ", unique per node)");
        }
        if (offset > step) {
            throw ConfigErrors.badValue("repl.keys.offset", String.valueOf(offset), "must be from 1 to repl.keys.step="
                    + step + ": a node's keys are those \u2261 offset (mod step)");
        }
        return new KeyScheme(step, offset);
    }

    /** Whether {@code value} is one of this node's keys. */
    public boolean owns(long value) {
        return Math.floorMod(value, (long) step) == offset % step;
    }

    /** The smallest of this node's keys greater than {@code floor}. */
    public long firstAbove(long floor) {
        long next = Math.addExact(floor, 1);
        long residue = Math.floorMod(next, (long) step);
        return Math.addExact(next, Math.floorMod((offset % step) - residue, (long) step));
    }

    @Override
    public String toString() {
        return "step " + step + " offset " + offset;
    }
}
