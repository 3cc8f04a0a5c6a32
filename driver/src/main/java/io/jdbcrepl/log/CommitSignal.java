package io.jdbcrepl.log;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells waiters in this JVM that a node committed captured changes, so that an apply side reading
 * that node wakes at once instead of at its next poll (three embedded nodes in one JVM, or an
 * application and its peer's applier side by side). Across JVMs PostgreSQL's NOTIFY does the same
 * ({@code node.Notifier}); elsewhere the apply side polls. A signal is a hint: a spurious one
 * costs one empty read, a missed one one poll interval.
 */
public final class CommitSignal {

    /** One per node name; a JVM knows a handful of nodes. */
    private static final ConcurrentHashMap<String, CommitSignal> SIGNALS = new ConcurrentHashMap<>();

    private long generation;

    private CommitSignal() {
    }

    /** The signal of the node named {@code node} ({@code repl.node}, as peers name it in {@code repl.peers}). */
    public static CommitSignal of(String node) {
        return SIGNALS.computeIfAbsent(node, n -> new CommitSignal());
    }

    /** The node committed captured changes. */
    public synchronized void fire() {
        generation++;
        notifyAll();
    }

    /** A number that grows with every {@link #fire()}: pass it to {@link #await}. */
    public synchronized long generation() {
        return generation;
    }

    /**
     * Waits until the node commits after {@code seen} was read from {@link #generation()}, or the
     * timeout passes; returns the generation now.
     */
    public synchronized long await(long seen, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (generation == seen) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) break;
            wait(left);
        }
        return generation;
    }
}
