package io.jdbcrepl.metrics;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One node's counters in this JVM (every connection and applier of a {@code repl.node} name adds to
 * the same), and its {@link StatusSnapshot}: the state {@code status} reads from the database.
 */
public final class NodeMetrics {

    private final String node;
    final LongAdder capturedStatements = new LongAdder();
    final LongAdder capturedLcrs = new LongAdder();
    final LongAdder captureNanos = new LongAdder();
    private final Map<String, PeerMetrics> peers = new ConcurrentHashMap<>();
    private final StatusSnapshot status;

    NodeMetrics(String node) {
        this.node = node;
        this.status = new StatusSnapshot(node);
    }

    public String node() {
        return node;
    }

    /**
     * A captured statement (an execution, or one entry of a batch) that changed {@code lcrs} rows,
     * taking {@code nanos} with its capture.
     */
    public void captured(long statements, long lcrs, long nanos) {
        if (!ReplMetrics.counting()) return;
        capturedStatements.add(statements);
        capturedLcrs.add(lcrs);
        captureNanos.add(nanos);
    }

    /** The counters of applying from {@code peer}, made at first use. */
    public PeerMetrics peer(String peer) {
        PeerMetrics p = peers.get(peer);
        if (p != null) return p;
        PeerMetrics made = new PeerMetrics(this, peer);
        p = peers.putIfAbsent(peer, made);
        if (p != null) return p;
        ReplMetrics.peerAdded(made);
        return made;
    }

    public Collection<PeerMetrics> peers() {
        return peers.values();
    }

    public StatusSnapshot status() {
        return status;
    }

    public long capturedStatements() {
        return capturedStatements.sum();
    }

    public long capturedLcrs() {
        return capturedLcrs.sum();
    }

    public long captureNanos() {
        return captureNanos.sum();
    }
}
