# Builds the single `invoicing` binary and runs it on a slim glibc image (the embedded libSQL addon is glibc).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /data invoicing
COPY --from=build /src/dist/invoicing /usr/local/bin/invoicing
USER invoicing
WORKDIR /data
# The libSQL addon is unpacked into TMPDIR at start; keep it private and writable.
ENV TMPDIR=/data/tmp INVOICING_DB=/data/invoicing.db PORT=8080
RUN mkdir -p /data/tmp
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/invoicing"]
CMD ["serve"]
