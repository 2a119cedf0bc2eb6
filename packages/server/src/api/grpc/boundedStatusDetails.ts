import { ResponderBuilder, ServerInterceptingCall, type ServerInterceptor } from "@grpc/grpc-js";
import { excerpt, wellFormed } from "../input/index.js";

/** The longest status message any call of the server answers with. */
export const MAX_STATUS_DETAILS_LENGTH = 1024;

/**
 * Cuts every status message (ours, grpc-health-check's, reflection's) to `MAX_STATUS_DETAILS_LENGTH`, and
 * makes it well-formed text. It travels in the `grpc-message` header: one over the client's HTTP/2 header
 * limits (from ~80 KB) makes the client drop the whole connection (GOAWAY COMPRESSION_ERROR), and every call
 * on it hangs to its deadline; one with a lone surrogate (a JSON escape quoted back) makes grpc-js's
 * `encodeURI` throw, which ends the process.
 */
export const boundedStatusDetails: ServerInterceptor = (_method, call) =>
  new ServerInterceptingCall(
    call,
    new ResponderBuilder()
      .withSendStatus((sent, next) => {
        const details = wellFormed(sent.details);
        return next({
          ...sent,
          details:
            details.length > MAX_STATUS_DETAILS_LENGTH
              ? excerpt(details, MAX_STATUS_DETAILS_LENGTH)
              : details,
        });
      })
      .build(),
  );
