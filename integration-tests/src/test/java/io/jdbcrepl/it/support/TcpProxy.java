package io.jdbcrepl.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP forwarder on a loopback port to a database server, which a test stops (every connection
 * through it breaks, new ones are refused) and starts again on the same port: a peer that is
 * unreachable for a while, without stopping the shared server. Or it black-holes the peer: open
 * connections stay open and new ones are accepted, but no byte gets through in either direction,
 * as when a network drops packets instead of refusing them.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private ServerSocket server;
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean blackHoled;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
        start();
    }

    public int port() {
        return port;
    }

    /** Accepts and forwards connections (again). */
    public synchronized void start() throws IOException {
        if (server != null) return;
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = s;
        Thread accept = new Thread(() -> acceptLoop(s), "tcp-proxy-" + port);
        accept.setDaemon(true);
        accept.start();
    }

    /** Refuses new connections and breaks every open one. */
    public synchronized void stop() {
        if (server == null) return;
        closeQuietly(server);
        server = null;
        for (Socket socket : open) closeQuietly(socket);
        open.clear();
    }

    /** From now on nothing gets through: bytes sent either way are dropped, new clients wait forever. */
    public void blackHole() {
        blackHoled = true;
    }

    /** Ends the black hole: the connections that lived through it are broken, new ones are forwarded again. */
    public synchronized void heal() {
        blackHoled = false;
        for (Socket socket : open) closeQuietly(socket);
        open.clear();
    }

    @Override
    public void close() {
        stop();
    }

    private void acceptLoop(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                return; // stopped
            }
            if (blackHoled) {
                synchronized (this) {
                    open.add(client); // held open, never answered
                }
                continue;
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                synchronized (this) {
                    if (server != s) {
                        closeQuietly(client);
                        closeQuietly(upstream);
                        continue;
                    }
                    open.add(client);
                    open.add(upstream);
                }
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (blackHoled) continue; // dropped
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // a side closed: close both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }
}
