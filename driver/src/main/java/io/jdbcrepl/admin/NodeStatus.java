package io.jdbcrepl.admin;

import java.util.List;

/**
 * A node's apply status: one entry per peer it applies from, and the subscribers of its own log
 * that were dropped after {@code repl.retention} of silence (SPEC 4.5).
 */
public record NodeStatus(String node, List<PeerStatus> peers, List<String> droppedSubscribers) {

    public NodeStatus {
        peers = List.copyOf(peers);
        droppedSubscribers = List.copyOf(droppedSubscribers);
    }
}
