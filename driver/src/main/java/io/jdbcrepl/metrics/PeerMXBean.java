package io.jdbcrepl.metrics;

import java.util.Map;

/**
 * JMX {@code jdbc.repl:type=Peer,node=<node>,peer=<peer>}: applying from one peer. The counters are
 * this JVM's applier's; the state, lag and queue are read from the database, as {@code status} shows them.
 */
public interface PeerMXBean {

    long getAppliedTransactions();

    /** Transactions moved to the error queue. */
    long getQueuedTransactions();

    long getAppliedLcrs();

    /** Local transactions committed (each holds one or more source transactions). */
    long getBatches();

    long getBatchTimeNanos();

    /** Mean time from capture at the peer to commit here, in milliseconds (-1: none yet). */
    double getMeanDelayMillis();

    /** Age of the oldest transaction committed at the peer and not applied here yet (-1: unknown). */
    long getLagSeconds();

    /** Transactions committed at the peer and not applied here yet (-1: unknown). */
    long getLagTransactions();

    /** Entries of this peer in the error queue (-1: unknown). */
    long getErrorQueueDepth();

    /** The applier's state as {@code status} shows it ({@code UNKNOWN} when the status cannot be read). */
    String getState();

    String getLastError();

    /** Seconds since a transaction from the peer was last applied or queued here (-1: never or unknown). */
    long getSecondsSinceApplied();

    /** Conflicts met, by {@code table kind handler outcome}. */
    Map<String, Long> getConflicts();
}
