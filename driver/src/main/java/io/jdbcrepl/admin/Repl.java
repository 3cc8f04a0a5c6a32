package io.jdbcrepl.admin;

import io.jdbcrepl.apply.InboundServer;
import io.jdbcrepl.node.Node;

/** JVM-wide controls of the driver's background work. */
public final class Repl {

    private Repl() {
    }

    /**
     * Stops every inbound server of this JVM and the nodes' change notifiers: their threads end and
     * their connections close. A later {@code jdbc:repl:} connection with {@code repl.peers} starts
     * the inbound server again, a later captured commit its node's notifier.
     */
    public static void shutdown() {
        InboundServer.shutdownAll();
        Node.stopAll();
    }
}
