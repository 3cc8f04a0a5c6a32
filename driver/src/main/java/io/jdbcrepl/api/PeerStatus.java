package io.jdbcrepl.api;

/**
 * What this node knows about applying from one peer (SPEC 4.7, 7).
 *
 * @param peer the peer's node name
 * @param positionRead the last position the applier in this JVM has read, else the applied one
 * @param positionApplied the position stored in {@code repl_progress} (null: nothing applied yet)
 * @param lagTransactions transactions committed at the peer and not yet applied or queued here (-1: peer unreachable)
 * @param lagSeconds age in seconds of the oldest of them (-1: peer unreachable)
 * @param queueDepth entries of this peer in the error queue
 * @param errorCount failed apply attempts (peer unreachable, deadlocks...) since the applier started in this JVM
 * @param state the applier's state in this JVM: {@code RUNNING}, {@code STANDBY} (another applier holds
 *        the lock), {@code UNREACHABLE}, {@code PAUSED} (a
 *        passing failure here, such as a full disk or a read-only database: retried with backoff, the
 *        cause in {@code lastError}), {@code STARTING}, {@code JOINING} (a join of this node is under way,
 *        in any process: nothing is applied until it ends; how far in {@code lastError}), {@code STOPPED}, {@code DROPPED} (this node was
 *        dropped as the peer's subscriber), {@code REWOUND} (the peer went back in time: restored
 *        from a backup, or a crash lost commits; applying from it stopped, the reason and evidence
 *        in {@code lastError}, in every JVM until reset), or {@code NOT_RUNNING} (no applier in this JVM). With no
 *        applier in this JVM it is read from the database: {@code RUNNING} when an applier in another
 *        process holds the apply lock (its lag is this node's {@code repl_progress}), else {@code NOT_RUNNING}
 * @param lastError the applier's last error (for {@code REWOUND}, why it stopped), or null
 * @param subscribeDenied null, or why this node may not record its position in the peer's
 *        {@code repl_subscriber} (the peer-reading user lacks the privilege, naming that user): the peer
 *        then cannot purge its log (SPEC 4.5, 8.7)
 * @param secondsSinceApplied seconds since a transaction from the peer was last applied or queued here,
 *        whichever process applied it (the database's clock; -1: never)
 */
public record PeerStatus(String peer, String positionRead, String positionApplied, long lagTransactions,
        long lagSeconds, long queueDepth, long errorCount, String state, String lastError, String subscribeDenied,
        long secondsSinceApplied) {
}
