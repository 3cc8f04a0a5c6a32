package io.jdbcrepl.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the applier in this JVM did with one peer's transactions: counted as its local transactions
 * commit, so a group rolled back and applied again is counted once.
 */
public final class PeerMetrics {

    private final NodeMetrics node;
    private final String peer;
    final LongAdder appliedTransactions = new LongAdder();
    final LongAdder queuedTransactions = new LongAdder();
    final LongAdder appliedLcrs = new LongAdder();
    final LongAdder batches = new LongAdder();
    final LongAdder batchNanos = new LongAdder();
    /** Transactions whose delay (source capture to local commit) is in {@link #delayMillis}. */
    final LongAdder delayed = new LongAdder();
    final LongAdder delayMillis = new LongAdder();
    private final Map<ConflictKey, LongAdder> conflicts = new ConcurrentHashMap<>();

    PeerMetrics(NodeMetrics node, String peer) {
        this.node = node;
        this.peer = peer;
    }

    public String peer() {
        return peer;
    }

    public NodeMetrics node() {
        return node;
    }

    /**
     * One local transaction committed: {@code applied} and {@code queued} source transactions of
     * {@code lcrs} LCRs, {@code nanos} from its first change to its commit. {@code capturedMillisSum}
     * sums, over the {@code delayed} transactions whose capture time is known, the epoch millis their
     * last LCR was captured at the source: the delay of each is the commit time less that.
     */
    public void committed(int applied, int queued, long lcrs, long nanos, int delayed, long capturedMillisSum) {
        if (!ReplMetrics.counting()) return;
        appliedTransactions.add(applied);
        queuedTransactions.add(queued);
        appliedLcrs.add(lcrs);
        batches.increment();
        batchNanos.add(nanos);
        if (delayed > 0) {
            long now = System.currentTimeMillis();
            // a source clock ahead of this one would make a negative delay: counted as none
            this.delayMillis.add(Math.max(0, delayed * now - capturedMillisSum));
            this.delayed.add(delayed);
        }
    }

    /** A conflict in a committed local transaction. */
    public void conflict(ConflictKey key) {
        if (!ReplMetrics.counting()) return;
        LongAdder count = conflicts.get(key);
        if (count == null) {
            LongAdder made = new LongAdder();
            count = conflicts.putIfAbsent(key, made);
            if (count == null) {
                count = made;
                ReplMetrics.conflictAdded(this, key, made);
            }
        }
        count.increment();
    }

    public long appliedTransactions() {
        return appliedTransactions.sum();
    }

    public long queuedTransactions() {
        return queuedTransactions.sum();
    }

    public long appliedLcrs() {
        return appliedLcrs.sum();
    }

    public long batches() {
        return batches.sum();
    }

    public long batchNanos() {
        return batchNanos.sum();
    }

    public long delayedTransactions() {
        return delayed.sum();
    }

    public long delayMillis() {
        return delayMillis.sum();
    }

    /** The conflicts counted so far, by what they were. */
    public Map<ConflictKey, Long> conflicts() {
        Map<ConflictKey, Long> out = new java.util.TreeMap<>(java.util.Comparator.comparing(ConflictKey::toString));
        conflicts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    Map<ConflictKey, LongAdder> conflictCounters() {
        return conflicts;
    }
}
