package org.topupbatch.sftp;

/** The SFTP server could not be reached, logged in to or read; the message carries no secret. */
public class SftpUnavailableException extends RuntimeException {
    public SftpUnavailableException(String message) {
        super(message);
    }
}
