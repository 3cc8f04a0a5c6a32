package io.jdbcrepl.admin;

import io.jdbcrepl.apply.InboundServer;

/** JVM-wide controls of the driver's background work. */
public final class Repl {

    private Repl() {
    }

    /**
     * Stops every inbound server of this JVM: its threads end and its connections close. A later
     * {@code jdbc:repl:} connection with {@code repl.peers} starts them again.
     */
    public static void shutdown() {
        InboundServer.shutdownAll();
    }
}
