package org.topupbatch.campaign;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.topupbatch.testing.FreePorts;

/**
 * A TCP pass-through in front of an account's sandbox that can be shut: then nothing listens on its
 * port (a new connection is refused: the request never leaves, CONNECTION_FAILED) and every open
 * connection is cut (a request on its way may or may not have reached the sandbox: an unknown outcome).
 * Opened again, it listens on the same port. The account is unreachable while shut, as a provider
 * whose address stops answering is.
 */
final class AccountsGate implements AutoCloseable {

    private final int port;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "accounts-gate");
        t.setDaemon(true);
        return t;
    });
    private ServerSocket server;

    AccountsGate(int targetPort) {
        this.port = FreePorts.pick();
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        open();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    synchronized boolean isOpen() {
        return server != null;
    }

    /** Listens (again) on the gate's port; nothing when open already. */
    synchronized void open() {
        if (server != null) {
            return;
        }
        IOException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                ServerSocket s = new ServerSocket();
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
                server = s;
                threads.submit(() -> accept(s));
                return;
            } catch (IOException e) {
                last = e;
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new UncheckedIOException("the gate cannot listen on " + port + " again", last);
    }

    /** Stops listening and cuts every open connection. */
    synchronized void shut() {
        if (server == null) {
            return;
        }
        closeQuietly(server);
        server = null;
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                return; // shut
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 5_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            synchronized (this) {
                if (server != s) {
                    // shut while connecting
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                sockets.add(client);
                sockets.add(upstream);
            }
            threads.submit(() -> pump(client, upstream));
            threads.submit(() -> pump(upstream, client));
        }
    }

    /** Copies one direction; the end of either (HTTP needs no half-closed connection) closes both. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // cut, or the other side went away
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        shut();
        threads.shutdownNow();
    }
}
