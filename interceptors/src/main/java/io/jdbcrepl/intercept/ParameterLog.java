package io.jdbcrepl.intercept;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parameters bound to one prepared statement, recorded as (setter, arguments) per index, and
 * snapshotted at {@code addBatch} (the datasource-proxy way). Named parameters of callable
 * statements ({@code setX(String name, …)}) are not recorded: capture never takes calls.
 */
public final class ParameterLog {

    private BoundParameter[] byIndex = new BoundParameter[8];
    private int highest;
    private final List<List<BoundParameter>> batch = new ArrayList<>();

    /** Records a setter call; {@code args[0]} is the 1-based index. */
    public void record(Setter setter, Object[] args) {
        if (args.length == 0 || !(args[0] instanceof Integer index) || index < 1) return;
        if (index > byIndex.length) byIndex = Arrays.copyOf(byIndex, Math.max(index, byIndex.length * 2));
        byIndex[index - 1] = new BoundParameter(index, setter, Arrays.copyOfRange(args, 1, args.length));
        highest = Math.max(highest, index);
    }

    public void clear() {
        Arrays.fill(byIndex, 0, highest, null);
        highest = 0;
    }

    /** The current parameters in index order; unset indexes are left out. */
    public List<BoundParameter> current() {
        List<BoundParameter> out = new ArrayList<>(highest);
        for (int i = 0; i < highest; i++) {
            if (byIndex[i] != null) out.add(byIndex[i]);
        }
        return out;
    }

    /** {@code addBatch()}: the parameters are kept as they are now; the current ones stay bound (JDBC). */
    public void addBatch() {
        batch.add(current());
    }

    public List<List<BoundParameter>> batch() {
        return List.copyOf(batch);
    }

    public void clearBatch() {
        batch.clear();
    }
}
