package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * Where a sandbox keeps its account between runs (the {@code state-file} knob): balance, every
 * order and every deposit. Written whole, to a temporary file renamed over the old one, so a reader or a process
 * killed mid-write always finds the previous or the new state, never half of one. A read-only
 * state file is loaded and never written (what {@code plan} uses beside a running service).
 */
final class SandboxStateFile {

    static final int VERSION = 1;

    /** One order as saved; times are epoch milliseconds, {@code settleAt} null for instantly settled products. */
    record SavedOrder(String refId, String productSku, String customerNo, String zone, long price, long balanceBefore,
                      long balanceAfter, long createdAt, Long settleAt, String failReason, String status,
                      String serialNumber, String message, Long settledAt, boolean refunded) {
    }

    /** One deposit as saved; {@code at} in epoch milliseconds. */
    record SavedDeposit(long amount, long at, long balanceBefore, long balanceAfter) {
    }

    /** {@code deposits} is null in a state written before deposits were kept: none. */
    record SavedState(int version, long balance, List<SavedOrder> orders, List<SavedDeposit> deposits) {
    }

    private static final SandboxStateFile NONE = new SandboxStateFile(null, true);

    private final Path file;
    private final boolean readOnly;
    private final ObjectMapper mapper = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private SandboxStateFile(Path file, boolean readOnly) {
        this.file = file;
        this.readOnly = readOnly;
    }

    /** The state file the config names, or none (the account lives in memory only). */
    static SandboxStateFile of(SandboxConfig config) {
        return config.stateFile() == null ? NONE : new SandboxStateFile(config.stateFile(), config.stateReadOnly());
    }

    /**
     * The saved state, empty when there is no file yet.
     *
     * @throws SandboxStateException naming the file when it cannot be read as a sandbox state
     */
    Optional<SavedState> load() {
        if (file == null) {
            return Optional.empty();
        }
        try {
            SavedState state = mapper.readValue(Files.readAllBytes(file), SavedState.class);
            if (state == null || state.orders() == null || state.version() != VERSION) {
                throw new IOException("not a sandbox state of version " + VERSION);
            }
            return Optional.of(state);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new SandboxStateException("the sandbox state file " + file + " cannot be read (" + firstLine(e)
                    + "); move it away to start the sandbox's account afresh", e);
        }
    }

    /** Writes the state whole; nothing when there is no file or it is read-only. */
    void save(SavedState state) throws IOException {
        if (file == null || readOnly) {
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = dir.resolve(file.getFileName() + ".tmp");
        Files.write(temp, mapper.writeValueAsBytes(state));
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    Path file() {
        return file;
    }

    private static String firstLine(Exception e) {
        String message = String.valueOf(e.getMessage());
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
