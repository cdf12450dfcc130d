package org.topupbatch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystem;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * A real SFTP server (Apache MINA SSHD) on 127.0.0.1 and a free port, serving {@code root} as its
 * "/" to one user ({@link #USER}) with a password. As on a real server, a user's login folder is
 * not "/": a relative folder is below {@link #home()} ({@code /home/erp}), an absolute one below
 * {@link #root()}. Its host key is written to a known_hosts file so that clients can check it.
 *
 * <p>Every login attempt is recorded ({@link #attempts()}), so that a test can count what a client
 * cost the server; the password can be changed and the server stopped and started again on the
 * same port and with the same host key.
 */
public final class SftpServer implements AutoCloseable {

    public static final String USER = "erp";
    /** The login folder of every user, relative to {@link #root()}. */
    public static final String HOME = "home/erp";

    /** One login attempt as the server saw it: who, how ("password" or "publickey"), whether it was let in, when. */
    public record Attempt(String user, String method, boolean accepted, long nanoTime) {
    }

    private final Path root;
    private final Path keys;
    private final Path knownHosts;
    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
    private final Set<PublicKey> authorizedKeys = ConcurrentHashMap.newKeySet();
    private volatile String password;
    private volatile SshServer sshd;
    private final int port;

    private SftpServer(Path root, Path keys, String password, int port) throws IOException {
        this.root = root;
        this.keys = keys;
        this.password = password;
        this.sshd = listen(port);
        this.port = sshd.getPort();
        this.knownHosts = keys.resolve("known_hosts");
        Files.writeString(knownHosts, knownHostsLine(hostKey()), StandardCharsets.US_ASCII);
    }

    /** Starts serving {@code root}; the host key and known_hosts file go into {@code keys}. */
    public static SftpServer start(Path root, Path keys, String password) {
        try {
            Files.createDirectories(root.resolve(HOME));
            Files.createDirectories(keys);
            return new SftpServer(root, keys, password, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test SFTP server", e);
        }
    }

    private SshServer listen(int onPort) throws IOException {
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(onPort);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(keys.resolve("host-key")));
        server.setPasswordAuthenticator((user, given, session) -> {
            boolean ok = USER.equals(user) && given.equals(password);
            attempts.add(new Attempt(user, "password", ok, System.nanoTime()));
            return ok;
        });
        server.setPublickeyAuthenticator((user, key, session) -> {
            boolean ok = USER.equals(user) && authorizedKeys.stream().anyMatch(k -> KeyUtils.compareKeys(k, key));
            attempts.add(new Attempt(user, "publickey", ok, System.nanoTime()));
            return ok;
        });
        server.setSubsystemFactories(List.of(new HomeSftpSubsystemFactory()));
        server.setFileSystemFactory(new VirtualFileSystemFactory(root.toAbsolutePath()));
        server.start();
        return server;
    }

    /** The SFTP subsystem with {@link #HOME} as the folder relative paths start from (JSch's home after login). */
    private static final class HomeSftpSubsystemFactory extends SftpSubsystemFactory {
        @Override
        public Command createSubsystem(ChannelSession channel) throws IOException {
            SftpSubsystem subsystem = new SftpSubsystem(channel, this) {
                @Override
                public Path getDefaultDirectory() {
                    return super.getDefaultDirectory().resolve(HOME);
                }
            };
            getRegisteredListeners().forEach(subsystem::addSftpEventListener);
            return subsystem;
        }
    }

    /** An address of a folder on this server, for topup.inbox or topup.reports: relative to the login folder, or absolute ("/srv/x"). */
    public String uri(String folder) {
        return uri(USER, folder);
    }

    /** As {@link #uri(String)} for another user (one the server does not let in). */
    public String uri(String user, String folder) {
        return "sftp://" + user + "@127.0.0.1:" + port + "/" + folder;
    }

    /** The server's "/". */
    public Path root() {
        return root;
    }

    /** The login folder, where relative folders are. */
    public Path home() {
        return root.resolve(HOME);
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** From now on the user logs in with this password (an operator resetting it on the server). */
    public void password(String newPassword) {
        password = newPassword;
    }

    /** From now on the user may also log in with this key. */
    public void authorize(PublicKey key) {
        authorizedKeys.add(key);
    }

    public Path knownHosts() {
        return knownHosts;
    }

    public PublicKey hostKey() {
        try {
            return sshd.getKeyPairProvider().loadKeys(null).iterator().next().getPublic();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the test SFTP server's host key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test SFTP server's host key", e);
        }
    }

    /** The known_hosts line that names {@code key} as this server's host key. */
    public String knownHostsLine(PublicKey key) {
        return "[127.0.0.1]:" + port + " " + PublicKeyEntry.toString(key) + "\n";
    }

    /** Every login attempt since the start, in order. */
    public List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    /** The refused login attempts of {@code user}. */
    public List<Attempt> refused(String user) {
        return attempts.stream().filter(a -> a.user().equals(user) && !a.accepted()).toList();
    }

    /** Stops listening and closes every open session at once, as a server going down would. */
    public void stop() throws IOException {
        sshd.stop(true);
    }

    /** Listens again on the same port with the same host key. */
    public void restart() throws IOException {
        sshd = listen(port);
    }

    @Override
    public void close() throws IOException {
        sshd.stop(true);
    }
}
