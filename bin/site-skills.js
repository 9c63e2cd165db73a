#!/usr/bin/env node
import { runCli } from '../dist/cli.js'

runCli()
