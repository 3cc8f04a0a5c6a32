package io.jdbcrepl.admin;

import io.jdbcrepl.node.Node;

/** JVM-wide controls of the driver's background work. */
public final class Repl {

    private Repl() {
    }

    /**
     * Stops every inbound server of this JVM and the nodes' change notifiers: their threads end and
     * their connections close. A later {@code jdbc:repl:} connection with {@code repl.peers} starts
     * the inbound server again, a later captured commit its node's notifier. (Without it a node's
     * background work stops a few seconds after its last connection closes, and all of it when the
     * driver is deregistered from {@code DriverManager}.)
     */
    public static void shutdown() {
        Node.stopAll();
    }
}
