package org.topupbatch.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import org.h2.tools.Server;

/**
 * Lets other local processes read an embedded H2 journal while the product holds it: the product
 * serves its open database over H2's TCP server on a free loopback port, published in
 * {@code <data>/journal/server.port}; a reader ({@code status}, {@code report}) connects there.
 *
 * <p>Not H2's own {@code AUTO_SERVER} mode: that one forbids {@code DB_CLOSE_ON_EXIT=FALSE}, which
 * the product needs to journal its last outcomes during a stop. H2's server accepts connections
 * from this machine only (no {@code -tcpAllowOthers}).
 */
final class H2JournalServer implements AutoCloseable {

    private static final String PORT_FILE = "server.port";

    private final Server server;
    private final Path portFile;

    private H2JournalServer(Server server, Path portFile) {
        this.server = server;
        this.portFile = portFile;
    }

    /** Serves the database the product has open; the port is published once it listens. */
    static H2JournalServer start(Path journalFolder, String url) {
        Path portFile = journalFolder.resolve(PORT_FILE);
        Server server;
        try {
            server = Server.createTcpServer("-tcpPort", "0", "-tcpDaemon").start();
        } catch (SQLException e) {
            throw new JournalException("cannot serve the journal " + url + " to local readers: " + e.getMessage(), e);
        }
        try {
            Path tmp = journalFolder.resolve(PORT_FILE + ".tmp");
            Files.writeString(tmp, Integer.toString(server.getPort()), StandardCharsets.US_ASCII);
            Files.move(tmp, portFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            server.stop();
            throw new JournalException("cannot publish the journal's reader port in " + portFile + ": " + e, e);
        }
        return new H2JournalServer(server, portFile);
    }

    /**
     * The URL a reader uses to reach the journal through the running product, or empty while the
     * product has not published its server (still starting, or stopping: {@link JournalReaderAccess}
     * tries again).
     */
    static java.util.Optional<String> publishedUrl(Path journalFolder, Path databaseFile) {
        try {
            int port = Integer.parseInt(Files.readString(journalFolder.resolve(PORT_FILE), StandardCharsets.US_ASCII).trim());
            return java.util.Optional.of("jdbc:h2:tcp://127.0.0.1:" + port + "/file:" + databaseFile + ";IFEXISTS=TRUE");
        } catch (IOException | NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(portFile);
        } catch (IOException ignored) {
            // a stale port file is ignored: readers first check that a product holds the journal
        }
        server.stop();
    }
}
