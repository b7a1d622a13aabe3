# Builds the single `invoicing` binary and runs it on a slim glibc image (the embedded libSQL addon is glibc).
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /data invoicing \
 && install -d -o invoicing -g invoicing -m 0700 /var/lib/invoicing-tmp
COPY --from=build /src/dist/invoicing /usr/local/bin/invoicing
USER invoicing
WORKDIR /data
# The libSQL addon is unpacked into TMPDIR at start: a private, writable folder of the image, outside the data volume
# (a volume or bind mount over /data would hide a folder made there, and the binary could not start).
# HOST 0.0.0.0: inside a container the service must listen on every interface to be reached through a published port
# (the binary's own default is 127.0.0.1).
ENV TMPDIR=/var/lib/invoicing-tmp INVOICING_DB=/data/invoicing.db PORT=8080 HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/invoicing"]
CMD ["serve"]
